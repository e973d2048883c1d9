/**
 * Wire behaviour no server here produces yet, against small scripted servers written from the specs:
 * MCP tasks (polling, input rounds through `tasks/update`, `tasks/cancel` on abort, handles), version
 * negotiation (-32022), `x-mcp-header` mirroring and dropping, list caching by scope, MCP-lite's SSE
 * events and promise timing.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createClient } from "../../src/client/mod.ts";
import { createMcpliteTransport } from "../../src/client/transports/mcplite.ts";
import { ErrorCode, McpliteError, ProtocolError } from "../../src/errors/mod.ts";
import { waitFor } from "../helpers/long-running.ts";
import { recordTimers } from "../helpers/recorded-timers.ts";
import { freezeClock, restoreClock } from "../helpers/clock.ts";

type Json = Record<string, unknown>;

function isUnknownTool(error: unknown): boolean {
  return error instanceof ProtocolError && error.code === ErrorCode.UnknownTool;
}

interface Call {
  method: string;
  id: unknown;
  params: Json;
  headers: Headers;
}
type Handler = (params: Json, call: Call) => Json | Response | Promise<Json | Response>;

/** A scripted MCP 2026-07-28 server: one handler per method; every request is recorded. */
function mcpServer(handlers: Record<string, Handler>, calls: Call[] = []) {
  const all: Record<string, Handler> = {
    "server/discover": () => ({
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: {} },
      ttlMs: 0,
      cacheScope: "public",
    }),
    "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public" }),
    ...handlers,
  };
  const fetch = async (request: Request): Promise<Response> => {
    const body = JSON.parse(await request.text());
    const call: Call = { method: body.method, id: body.id, params: body.params ?? {}, headers: request.headers };
    calls.push(call);
    const handler = all[body.method];
    if (handler === undefined) {
      return Response.json({ jsonrpc: "2.0", id: body.id, error: { code: -32601, message: "no" } }, { status: 404 });
    }
    const result = await handler(call.params, call);
    if (result instanceof Response) return result;
    if ("error" in result) return Response.json({ jsonrpc: "2.0", id: body.id, error: result.error });
    return Response.json({ jsonrpc: "2.0", id: body.id, result: { resultType: "complete", ...result } });
  };
  return { fetch, calls };
}

const text = (value: string) => ({ content: [{ type: "text", text: value }] });
const TASK = { createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttlMs: 60_000 };

describe("MCP tasks", () => {
  it("polls tasks/get at pollIntervalMs until the result, declaring the extension", async () => {
    let polls = 0;
    const { fetch, calls } = mcpServer({
      "tools/call": () => ({ resultType: "task", taskId: "t-1", status: "working", pollIntervalMs: 20, ...TASK }),
      "tasks/get": () =>
        ++polls < 3 ? { taskId: "t-1", status: "working", pollIntervalMs: 20, ...TASK } : {
          taskId: "t-1",
          status: "completed",
          ...TASK,
          result: { ...text("done"), structuredContent: { rows: 3 } },
        },
    });
    const client = createClient("http://localhost/mcp", { fetch });
    const timers = recordTimers();
    try {
      assert.deepEqual(await client.call("job", {}), { rows: 3 });
    } finally {
      timers.restore();
    }
    // The waits the client chose between its polls (the timers it set), not the time a loaded machine took.
    assert.ok(timers.delays.filter((ms) => ms === 20).length >= 2, `two waits of 20 ms at least: ${timers.delays}`);
    const gets = calls.filter((c) => c.method === "tasks/get");
    assert.equal(gets.length, 3);
    assert.equal(gets[0].headers.get("mcp-name"), "t-1");
    const capabilities = (calls[0].params._meta as Json)["io.modelcontextprotocol/clientCapabilities"] as Json;
    assert.deepEqual(capabilities.extensions, { "io.modelcontextprotocol/tasks": {} });
  });

  it("answers input_required with tasks/update, once per key", async () => {
    let state = "input_required";
    // Once answered, the task still asks the same once more (as its server takes the answer in), then completes.
    let getsSinceUpdate = 0;
    const { fetch, calls } = mcpServer({
      "tools/call": () => ({ resultType: "task", taskId: "t-2", status: "working", pollIntervalMs: 5, ...TASK }),
      "tasks/get": () =>
        state === "updated" && ++getsSinceUpdate > 1
          ? { taskId: "t-2", status: "completed", ...TASK, result: text("deleted") }
          : {
            taskId: "t-2",
            status: "input_required",
            pollIntervalMs: 5,
            ...TASK,
            inputRequests: {
              confirm: { method: "elicitation/create", params: { message: "Delete?", requestedSchema: {} } },
            },
          },
      "tasks/update": (params) => {
        assert.deepEqual(params.inputResponses, { confirm: { action: "accept", content: { confirm: true } } });
        state = "updated";
        return {};
      },
    });
    let asked = 0;
    const client = createClient("http://localhost/mcp", {
      fetch,
      onElicit: () => (asked++, { action: "accept", content: { confirm: true } }),
    });
    assert.equal(await client.call("confirm_delete", { filename: "a.txt" }), "deleted");
    assert.equal(asked, 1);
    assert.equal(calls.filter((c) => c.method === "tasks/update").length, 1);
  });

  it("reports a failed task's error and a cancelled task as a cancelled error", async () => {
    const failing = mcpServer({
      "tools/call": () => ({
        resultType: "task",
        taskId: "t-3",
        status: "failed",
        ...TASK,
        error: { code: -32603, message: "disk full" },
      }),
    });
    await assert.rejects(
      createClient("http://localhost/mcp", { fetch: failing.fetch }).call("job", {}),
      (e: unknown) => e instanceof ProtocolError && e.rpcCode === -32603 && e.message === "disk full",
    );
    const cancelled = mcpServer({
      "tools/call": () => ({ resultType: "task", taskId: "t-4", status: "cancelled", ...TASK }),
    });
    await assert.rejects(
      createClient("http://localhost/mcp", { fetch: cancelled.fetch }).call("job", {}),
      (e: unknown) => e instanceof McpliteError && !(e instanceof ProtocolError) && e.code === ErrorCode.Cancelled,
    );
  });

  it("sends tasks/cancel when the caller aborts", async () => {
    const { fetch, calls } = mcpServer({
      "tools/call": () => ({ resultType: "task", taskId: "t-5", status: "working", pollIntervalMs: 10, ...TASK }),
      "tasks/get": () => ({ taskId: "t-5", status: "working", pollIntervalMs: 10, ...TASK }),
      "tasks/cancel": () => ({}),
    });
    const controller = new AbortController();
    const client = createClient("http://localhost/mcp", { fetch });
    const call = client.call("slow_compute", { seconds: 60 }, { signal: controller.signal });
    // Aborted once the client polls its task (so it has one to cancel), not 40 ms in, which a loaded machine
    // can reach before the task was created; then the tasks/cancel is waited for, 10 s at most.
    await waitFor(() => calls.some((c) => c.method === "tasks/get"));
    controller.abort(new Error("not any more"));
    await assert.rejects(call, /not any more/);
    await waitFor(() => calls.some((c) => c.method === "tasks/cancel"));
    const cancel = calls.find((c) => c.method === "tasks/cancel")!;
    assert.equal(cancel.params.taskId, "t-5");
    assert.equal(cancel.headers.get("mcp-name"), "t-5");
  });

  it("returns the task handle with wait: false; resume() polls and cancel() cancels", async () => {
    let resumed = false;
    let gets = 0;
    const { fetch, calls } = mcpServer({
      "tools/call": () => ({ resultType: "task", taskId: "t-6", status: "working", pollIntervalMs: 5, ...TASK }),
      // Done once resume() has polled it working twice.
      "tasks/get": () =>
        resumed && ++gets > 2
          ? { taskId: "t-6", status: "completed", ...TASK, result: text("ok") }
          : { taskId: "t-6", status: "working", ...TASK },
      "tasks/cancel": () => ({}),
    });
    const client = createClient("http://localhost/mcp", { fetch, pollIntervalMs: 5 });
    const handle = await client.call("job", {}, { wait: false });
    // One handle on every wire: MCP's task is a promise whose token is the task id.
    assert.deepEqual(handle, {
      kind: "promise",
      tool: "job",
      token: "t-6",
      status: "working",
      retryAfterMs: 5,
    });
    resumed = true; // what the handle's wait: false polled (if anything) is not counted
    assert.equal(await client.resume(handle), "ok");
    assert.equal(await client.cancel(handle), true);
    assert.ok(calls.some((c) => c.method === "tasks/cancel"));
  });
});

describe("MCP negotiation and headers", () => {
  it("retries with a version from -32022's data.supported", async () => {
    let refused = false;
    const calls: Call[] = [];
    const { fetch } = mcpServer({
      "server/discover": () => {
        if (!refused) {
          refused = true;
          return Response.json({
            jsonrpc: "2.0",
            id: calls[0].id,
            error: {
              code: -32022,
              message: "Unsupported protocol version",
              data: { supported: ["2026-07-28"], requested: "x" },
            },
          }, { status: 400 });
        }
        return { supportedVersions: ["2026-07-28"], capabilities: {}, ttlMs: 0, cacheScope: "public" };
      },
    }, calls);
    const client = createClient("http://localhost/mcp", { fetch });
    assert.deepEqual(await client.listTools(), []);
    assert.deepEqual(calls.map((c) => c.method), ["server/discover", "server/discover", "tools/list"]);
    assert.notEqual(calls[0].id, calls[1].id);
  });

  it("falls back to the 2025 handshake when the server does not know server/discover", async () => {
    const calls: Call[] = [];
    const { fetch } = mcpServer({
      "server/discover": () =>
        Response.json({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Bad Request: no session" } }, {
          status: 400,
        }),
      initialize: () => ({
        protocolVersion: "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: "old", version: "1" },
      }),
      "notifications/initialized": () => new Response(null, { status: 202 }),
      "tools/list": () => ({ tools: [{ name: "old_tool", inputSchema: { type: "object" } }] }),
    }, calls);
    const client = createClient("http://localhost/mcp", { fetch });
    assert.deepEqual((await client.listTools()).map((t) => t.name), ["old_tool"]);
    assert.deepEqual(calls.map((c) => c.method), [
      "server/discover",
      "initialize",
      "notifications/initialized",
      "tools/list",
    ]);
    assert.equal(calls[3].headers.get("mcp-protocol-version"), "2025-06-18");
    assert.equal(calls[3].params._meta, undefined);
  });

  it("mirrors x-mcp-header arguments into Mcp-Param-*, encodes names, and drops invalid tools", async () => {
    const warnings: string[] = [];
    const { fetch, calls } = mcpServer({
      "tools/list": () => ({
        ttlMs: 0,
        cacheScope: "public",
        tools: [
          {
            name: "route",
            inputSchema: {
              type: "object",
              properties: {
                region: { type: "string", "x-mcp-header": "Region" },
                priority: { type: "integer", "x-mcp-header": "Priority" },
                verbose: { type: ["boolean", "null"], "x-mcp-header": "Verbose" },
                note: { type: "string" },
              },
            },
          },
          {
            name: "bad",
            inputSchema: { type: "object", properties: { score: { type: "number", "x-mcp-header": "Score" } } },
          },
          {
            name: "nested_bad",
            inputSchema: { type: "object", properties: { a: { anyOf: [{ type: "string", "x-mcp-header": "A" }] } } },
          },
        ],
      }),
      "tools/call": () => text("ok"),
    });
    const client = createClient("http://localhost/mcp", { fetch, onWarning: (m) => warnings.push(m) });
    assert.deepEqual((await client.listTools()).map((t) => t.name), ["route"]);
    assert.equal(warnings.length, 2);
    await client.call("route", { region: " eu-west ", priority: 7, verbose: null, note: "n" });
    const call = calls.find((c) => c.method === "tools/call")!;
    assert.equal(call.headers.get("mcp-param-region"), "=?base64?IGV1LXdlc3Qg?=");
    assert.equal(call.headers.get("mcp-param-priority"), "7");
    assert.equal(call.headers.get("mcp-param-verbose"), null);
    assert.equal(call.headers.get("mcp-param-note"), null);
    await assert.rejects(client.call("bad", { score: 1 }), isUnknownTool);
    assert.equal(calls.filter((c) => c.method === "tools/call").length, 1, "a dropped tool is never called");
  });

  it("keeps a private list for the credentials it was fetched with", async () => {
    const { fetch, calls } = mcpServer({
      "tools/list": () => ({
        tools: [{ name: "t", inputSchema: { type: "object" } }],
        ttlMs: 60_000,
        cacheScope: "private",
      }),
    });
    let token = "a";
    const client = createClient("http://localhost/mcp", {
      fetch,
      headers: () => ({ authorization: `Bearer ${token}` }),
    });
    await client.listTools();
    await client.listTools();
    assert.equal(calls.filter((c) => c.method === "tools/list").length, 1);
    token = "b";
    await client.listTools();
    assert.equal(calls.filter((c) => c.method === "tools/list").length, 2);
    assert.equal(calls.at(-1)!.headers.get("authorization"), "Bearer b");
  });
});

/** A scripted MCP-lite server answering `/calltools` with the given SSE events. */
function liteServer(onCall: (params: Json, count: number) => Response) {
  let count = 0;
  const calls: Json[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    if (request.url.endsWith("/listtools")) return Response.json({ tools: [] });
    const body = JSON.parse(await request.text());
    calls.push(body.params);
    return onCall(body.params, count++);
  };
  return { fetch, calls };
}

function sse(events: [string, unknown][]): Response {
  const body = events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join("");
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

describe("MCP-lite wire details", () => {
  it("reads SSE partials, ignores heartbeats, and joins partials when done carries only _meta", async () => {
    const { fetch } = liteServer(() =>
      sse([
        ["heartbeat", { timestamp: "t" }],
        ["message", { partial: "Quarterly Report" }],
        ["progress", { progress: 1, total: 2 }],
        ["message", { partial: ", revenue +15%" }],
        ["done", { _meta: { response_type: "answer" } }],
      ])
    );
    const client = createClient(createMcpliteTransport("http://localhost/mcp-lite/v1", { fetch }));
    const stream = client.stream("generate_report", { topic: "q4" });
    const partials: unknown[] = [];
    for await (const partial of stream) partials.push(partial);
    assert.deepEqual(partials, ["Quarterly Report", ", revenue +15%"]);
    assert.equal(await stream.result, "Quarterly Report, revenue +15%");
  });

  it("turns an SSE error event into a typed error", async () => {
    const { fetch } = liteServer(() =>
      sse([["error", { code: -32601, message: "Tool not found: x", data: { requested_tool: "x" } }]])
    );
    const client = createClient(createMcpliteTransport("http://localhost/mcp-lite/v1", { fetch }));
    await assert.rejects(client.stream("x", {}).result, isUnknownTool);
  });

  it("sends elicitation answers with the state byte for byte, in params", async () => {
    const state = 'opaque "state" \u00e9 \\ 1';
    const { fetch, calls } = liteServer((params, n) =>
      Response.json({
        jsonrpc: "2.0",
        id: 1,
        result: n === 0
          ? {
            _meta: {
              response_type: "elicitation",
              input_requests: {
                who: { method: "elicitation/create", params: { message: "Who?", requestedSchema: {} } },
              },
              request_state: state,
            },
          }
          : { ...text(`hello ${(params.inputResponses as Json).who && "Ada"}`), _meta: { response_type: "answer" } },
      })
    );
    const client = createClient(createMcpliteTransport("http://localhost/mcp-lite/v1", { fetch }), {
      onElicit: () => ({ action: "accept", content: { name: "Ada" } }),
    });
    assert.equal(await client.call("greet", { loud: true }), "hello Ada");
    assert.equal(calls[1].requestState, state);
    assert.deepEqual(calls[1].arguments, { loud: true });
    assert.deepEqual(calls[1].inputResponses, { who: { action: "accept", content: { name: "Ada" } } });
  });

  it("honours estimated_completion when there is no retry_after_ms", async () => {
    const { fetch, calls } = liteServer((_params, n) =>
      Response.json({
        jsonrpc: "2.0",
        id: 1,
        result: n === 0
          ? {
            _meta: {
              response_type: "promise",
              promise_token: "tok",
              estimated_completion: new Date(Date.now() + 60).toISOString(),
            },
          }
          : { ...text("ready"), _meta: { response_type: "answer" } },
      })
    );
    const client = createClient(createMcpliteTransport("http://localhost/mcp-lite/v1", { fetch }));
    // The clock stands still (the server's estimate 60 ms ahead of it); the client's wait is read from its timers.
    freezeClock();
    const timers = recordTimers();
    try {
      assert.equal(await client.call("analyze", {}), "ready");
    } finally {
      timers.restore();
      restoreClock();
    }
    assert.ok(timers.delays.includes(60), `a wait until the estimated completion: ${timers.delays}`);
    assert.deepEqual(calls[1], { name: "redeem", arguments: { promise: "tok" } });
  });
});
