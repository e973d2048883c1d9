import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer, defineTool, mcpBinding, mcpLiteBinding } from "../../../mod.ts";
import { fixtureServer } from "../../helpers/fixtures.ts";
import { post, toolsCall } from "../../helpers/request.ts";
import { readSse } from "../../helpers/sse.ts";

const CALL = "/mcp-lite/v1/calltools";

describe("MCP-lite binding", () => {
  it("lists tools with @type, schemas and annotations at /listtools and its alias /tools", async () => {
    const server = fixtureServer();
    for (const path of ["/mcp-lite/v1/listtools", "/mcp-lite/v1/tools", "/mcp-lite/v1/tools/"]) {
      const response = await server.fetch(post(path, {}));
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "application/json");
      const { tools } = await response.json();
      assert.deepEqual(tools[0], {
        name: "add",
        "@type": "math",
        description: "Adds two numbers",
        inputSchema: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        },
        outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
      });
      assert.equal(tools.length, 6);
    }
  });

  it("lists a description for every tool: its own, else its title, else an empty string", async () => {
    // MCP-lite spec v0.042 §3.9: every tool has a description.
    const server = createServer({ name: "t", version: "1" })
      .tool(defineTool("described").title("Described").describe("Does a thing").handle(() => "x"))
      .tool(defineTool("titled").title("Only a title").handle(() => "x"))
      .tool(defineTool("bare").handle(() => "x"));
    const { tools } = await (await server.fetch(post("/mcp-lite/v1/listtools", {}))).json();
    assert.deepEqual(
      tools.map((t: { name: string; description: unknown }) => [t.name, t.description]),
      [["described", "Does a thing"], ["titled", "Only a title"], ["bare", ""]],
    );
  });

  it("calls a tool over JSON-RPC at /calltools (and /rpc) with _meta on the result", async () => {
    const server = fixtureServer();
    for (const path of [CALL, "/mcp-lite/v1/rpc"]) {
      const response = await server.fetch(post(path, toolsCall("add", { a: 1, b: 2 }, "call-001")));
      assert.equal(response.status, 200);
      const body = await response.json();
      assert.equal(body.jsonrpc, "2.0");
      assert.equal(body.id, "call-001");
      assert.deepEqual(body.result.structuredContent, { sum: 3 });
      assert.deepEqual(body.result.content, [{ type: "text", text: '{"sum":3}' }]);
      const meta = body.result._meta;
      assert.equal(meta.response_type, "answer");
      assert.equal(meta.server_version, "1.2.3");
      assert.ok(Number.isInteger(meta.processing_time_ms) && meta.processing_time_ms >= 0);
      assert.ok(!Number.isNaN(Date.parse(meta.timestamp)));
    }
  });

  it("answers a business failure as response_type failure with isError", async () => {
    const body = await (await fixtureServer().fetch(post(CALL, toolsCall("fails", {})))).json();
    assert.equal(body.result._meta.response_type, "failure");
    assert.equal(body.result.isError, true);
    assert.deepEqual(body.result.content, [{ type: "text", text: "the quota is exhausted" }]);
  });

  it("answers an unknown tool with -32601 Tool not found, the known tools and a suggestion", async () => {
    const body = await (await fixtureServer().fetch(post(CALL, toolsCall("ech", {}, "error-example")))).json();
    assert.equal(body.id, "error-example");
    assert.equal(body.error.code, -32601);
    assert.equal(body.error.message, "Tool not found: ech");
    assert.equal(body.error.data.requested_tool, "ech");
    assert.deepEqual(body.error.data.available_tools, ["add", "echo", "fails", "crashes", "countdown", "slow"]);
    assert.equal(body.error.data.suggestion, "Did you mean 'echo'?");
  });

  it("answers invalid arguments with -32602 and the failing paths", async () => {
    const body = await (await fixtureServer().fetch(post(CALL, toolsCall("echo", { text: 5, times: 0 })))).json();
    assert.equal(body.error.code, -32602);
    assert.deepEqual(body.error.data.issues.map((i: { path: string }) => i.path), ["text", "times"]);
  });

  it("answers methods other than tools/call with -32601, serves tools/list, and needs an id for calls", async () => {
    const server = fixtureServer();
    const other = await (await server.fetch(post(CALL, { jsonrpc: "2.0", id: 9, method: "completion/complete" })))
      .json();
    assert.deepEqual(other.error, {
      code: -32601,
      message: "Method not found: completion/complete",
      data: { code: "method_not_found" },
    });
    const list = await (await server.fetch(post(CALL, { jsonrpc: "2.0", id: 10, method: "tools/list" }))).json();
    assert.equal(list.result.tools.length, 6);
    const noId = await server.fetch(post(CALL, { jsonrpc: "2.0", method: "tools/call", params: { name: "add" } }));
    assert.equal(noId.status, 400);
    assert.equal((await noId.json()).error.code, -32600);
  });

  it("does not leak a crashing handler's stack", async () => {
    const text = await (await fixtureServer({ logger: false }).fetch(post(CALL, toolsCall("crashes", {})))).text();
    assert.match(text, /database connection refused/);
    assert.doesNotMatch(text, /stack|\.ts:\d+/);
  });

  it("serves under a configurable base path, and only there", async () => {
    const server = createServer({ name: "t", version: "1", bindings: [mcpLiteBinding({ basePath: "/api/lite/" })] });
    assert.equal((await server.fetch(post("/api/lite/listtools", {}))).status, 200);
    assert.equal((await server.fetch(post("/mcp-lite/v1/listtools", {}))).status, 404);
    const off = createServer({ name: "t", version: "1", bindings: [mcpBinding()] });
    assert.equal((await off.fetch(post("/mcp-lite/v1/listtools", {}))).status, 404);
  });
});

describe("MCP-lite SSE", () => {
  const sse = { accept: "text/event-stream" };

  it("streams message events with partials, then one done event with the complete result and _meta", async () => {
    const response = await fixtureServer().fetch(post(CALL, toolsCall("countdown", { count: 3 }, "stream-001"), sse));
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    const events = await readSse(response);
    assert.deepEqual(events.map((e) => e.event), ["message", "message", "message", "message", "done"]);
    assert.deepEqual(events.slice(0, 4).map((e) => JSON.parse(e.data)), [
      { partial: "3 " },
      { partial: "2 " },
      { partial: "1 " },
      { partial: "liftoff" },
    ]);
    const done = JSON.parse(events[4].data);
    assert.deepEqual(done.content, [{ type: "text", text: "3 2 1 liftoff" }]);
    assert.equal(done._meta.response_type, "answer");
    assert.equal(done._meta.server_version, "1.2.3");
  });

  it("answers a non-streaming tool asked for SSE with one done event", async () => {
    const events = await readSse(await fixtureServer().fetch(post(CALL, toolsCall("add", { a: 1, b: 1 }), sse)));
    assert.deepEqual(events.map((e) => e.event), ["done"]);
    assert.deepEqual(JSON.parse(events[0].data).structuredContent, { sum: 2 });
  });

  it("sends protocol errors as one error event, and business failures as a done event of type failure", async () => {
    const unknown = await readSse(await fixtureServer().fetch(post(CALL, toolsCall("nope", {}), sse)));
    assert.deepEqual(unknown.map((e) => e.event), ["error"]);
    const error = JSON.parse(unknown[0].data);
    assert.equal(error.code, -32601);
    assert.equal(error.data.requested_tool, "nope");
    const failure = await readSse(await fixtureServer().fetch(post(CALL, toolsCall("fails", {}), sse)));
    assert.deepEqual(failure.map((e) => e.event), ["done"]);
    assert.equal(JSON.parse(failure[0].data)._meta.response_type, "failure");
  });

  it("sends heartbeat events while a slow stream works", async () => {
    // The stream waits until the caller has seen three heartbeats: the test asserts that they come while the
    // tool works, not how many fit in a stretch of wall-clock time (a loaded machine fires fewer timers).
    let release!: () => void;
    const released = new Promise<void>((resolve) => release = resolve);
    const waits = defineTool("waits").stream(async function* () {
      yield "first";
      await released;
      yield "last";
    });
    const server = createServer({ name: "t", version: "1", heartbeatMs: 20 }).tool(waits);
    const response = await server.fetch(post(CALL, toolsCall("waits", {}), sse));
    let heartbeats = 0;
    const events = await readSse(response, 10_000, (event) => {
      if (event.event === "heartbeat" && ++heartbeats === 3) release();
    });
    const names = events.map((e) => e.event);
    assert.deepEqual(names.filter((n) => n !== "heartbeat"), ["message", "message", "done"], names.join(","));
    assert.ok(names.indexOf("heartbeat") < names.lastIndexOf("message"), names.join(","));
    for (const beat of events.filter((e) => e.event === "heartbeat")) assert.ok(JSON.parse(beat.data).timestamp);
  });

  it("sends progress reports as progress events", async () => {
    const events = await readSse(await fixtureServer().fetch(post(CALL, toolsCall("slow", { ms: 5 }), sse)));
    const progress = events.filter((e) => e.event === "progress").map((e) => JSON.parse(e.data));
    assert.deepEqual(progress, [{ progress: 0, total: 2, message: "started" }, {
      progress: 2,
      total: 2,
      message: "done",
    }]);
    assert.equal(events.at(-1)?.event, "done");
  });
});
