import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tamper } from "../../helpers/tamper.ts";
import { createJobTools, jobServer, waitFor } from "../../helpers/long-running.ts";
import { post, toolsCall } from "../../helpers/request.ts";
import { readSse } from "../../helpers/sse.ts";

const CALL = "/mcp-lite/v1/calltools";

type Fetchable = { fetch(request: Request): Promise<Response> };

async function rpc(server: Fetchable, name: string, args: unknown, id: string | number = 1) {
  const response = await server.fetch(post(CALL, toolsCall(name, args, id)));
  assert.equal(response.status, 200);
  return await response.json();
}

describe("MCP-lite promises", () => {
  it("answers with _meta.response_type promise, as seed A.3 shows", async () => {
    const { server } = jobServer();
    const body = await rpc(server, "analyze_dataset", { dataset_id: "large_dataset_001" }, "analysis-001");
    assert.equal(body.id, "analysis-001");
    assert.deepEqual(Object.keys(body.result), ["_meta"]);
    const meta = body.result._meta;
    assert.equal(meta.response_type, "promise");
    assert.match(meta.promise_token, /^mcl1\.[A-Za-z0-9_-]+$/);
    assert.equal(meta.estimated_completion, "2030-01-01T00:00:00.000Z");
    assert.equal(meta.retry_after_ms, 5);
    assert.ok(Date.parse(meta.expires_at) > Date.now());
    assert.equal(meta.server_version, "0.0.1");
    assert.equal(typeof meta.timestamp, "string");
  });

  it("lists redeem as a system tool with a required string promise", async () => {
    const { server } = jobServer();
    const { tools } = await (await server.fetch(post("/mcp-lite/v1/listtools", {}))).json();
    const redeem = tools.find((t: { name: string }) => t.name === "redeem");
    assert.equal(redeem["@type"], "system");
    assert.deepEqual(redeem.inputSchema.required, ["promise"]);
    assert.equal(redeem.inputSchema.properties.promise.type, "string");
  });

  it("redeems until the answer, and each instance sharing the secret redeems the other's tokens", async () => {
    const tools = createJobTools();
    const a = jobServer({}, tools).server;
    const b = jobServer({}, tools).server;
    let body = await rpc(a, "analyze_dataset", { dataset_id: "d1", polls: 3 });
    const seen: string[] = [];
    for (let i = 0; body.result._meta.response_type === "promise" && i < 10; i++) {
      const instance = i % 2 === 0 ? b : a; // alternate instances on every poll
      seen.push(instance === a ? "a" : "b");
      body = await rpc(instance, "redeem", { promise: body.result._meta.promise_token }, `redeem-${i}`);
    }
    assert.deepEqual(seen, ["b", "a", "b"]);
    assert.equal(body.result._meta.response_type, "answer");
    assert.deepEqual(body.result.structuredContent, { dataset_id: "d1", rows: 42 });
    assert.deepEqual([tools.counters.started, tools.counters.redeemed], [1, 3]);
  });

  it("answers expired, forged and foreign tokens with -32602 and changes nothing", async () => {
    let now = Date.now();
    const { server, counters } = jobServer({ tokens: { now: () => now }, logger: false }); // bad tokens on purpose
    const token = (await rpc(server, "analyze_dataset", { dataset_id: "d" })).result._meta.promise_token;
    const foreign =
      (await rpc(jobServer({ secret: "a secret that the first server lacks!!" }).server, "analyze_dataset", {
        dataset_id: "d",
      })).result._meta.promise_token;
    const forged = tamper(token);
    for (const bad of [forged, foreign, "prom_a7b9c2d4e6f8"]) {
      const body = await rpc(server, "redeem", { promise: bad });
      assert.equal(body.error.code, -32602);
      assert.equal(body.error.message, "Invalid or expired promise token");
      assert.deepEqual(body.error.data, { code: "invalid_params", reason: "invalid_promise" });
    }
    now += 2 * 60 * 60 * 1000;
    assert.equal((await rpc(server, "redeem", { promise: token })).error.code, -32602);
    assert.equal((await rpc(server, "redeem", {})).error.code, -32602); // the promise argument is required
    assert.equal(counters.redeemed, 0);
  });

  it("refuses bad redeem arguments with the schema's own answers, by path", async () => {
    const { server } = jobServer({ logger: false }); // a token that is not one, on purpose: no error line
    const missing = 'promise: Invalid key: Expected "promise" but received undefined';
    const cases: [unknown, string, string][] = [
      [{}, "promise", missing],
      [{ cancel: true }, "promise", missing],
      [{ promise: "" }, "promise", "promise: Invalid length: Expected >=1 but received 0"],
      [{ promise: 1 }, "promise", "promise: Invalid type: Expected string but received 1"],
      [{ promise: null }, "promise", "promise: Invalid type: Expected string but received null"],
      [{ promise: "mcl1.x", cancel: "yes" }, "cancel", 'cancel: Invalid type: Expected boolean but received "yes"'],
    ];
    for (const [args, path, detail] of cases) {
      const { error } = await rpc(server, "redeem", args);
      assert.equal(error.code, -32602, JSON.stringify(args));
      assert.equal(error.message, `Invalid arguments for tool redeem: ${detail}`);
      assert.deepEqual(error.data, {
        code: "invalid_arguments",
        tool: "redeem",
        issues: [{ path, message: detail.slice(path.length + 2) }],
      });
    }
    for (const args of [{ promise: "mcl1.x", extra: 1 }, { promise: "mcl1.x", cancel: false }]) {
      assert.equal((await rpc(server, "redeem", args)).error.message, "Invalid or expired promise token");
    }
  });

  it("delivers deferred work's result, and says a shared store is needed elsewhere", async () => {
    const tools = createJobTools();
    const a = jobServer({}, tools).server;
    const b = jobServer({}, tools).server;
    const token = (await rpc(a, "crunch", {})).result._meta.promise_token;
    const elsewhere = await rpc(b, "redeem", { promise: token });
    assert.equal(elsewhere.error.code, -32602);
    assert.match(elsewhere.error.message, /shared ResultStore/);
    assert.equal((await rpc(a, "redeem", { promise: token })).result._meta.response_type, "promise");
    tools.release(12);
    let body: { result: { _meta: { response_type: string }; structuredContent?: unknown } } | undefined;
    await waitFor(async () =>
      (body = await rpc(a, "redeem", { promise: token })).result._meta.response_type !== "promise"
    );
    assert.equal(body?.result._meta.response_type, "answer");
    assert.deepEqual(body?.result.structuredContent, { rows: 12 });
  });

  it("sends the promise as the done event over SSE", async () => {
    const { server } = jobServer();
    const response = await server.fetch(
      post(CALL, toolsCall("analyze_dataset", { dataset_id: "d" }), { accept: "text/event-stream" }),
    );
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    const events = (await readSse(response)).filter((e) => e.event !== "heartbeat");
    assert.deepEqual(events.map((e) => e.event), ["done"]);
    const meta = JSON.parse(events[0].data)._meta;
    assert.equal(meta.response_type, "promise");
    assert.match(meta.promise_token, /^mcl1\./);
  });
});
