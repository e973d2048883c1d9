import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { jobServer } from "../../helpers/long-running.ts";
import { post } from "../../helpers/request.ts";
import { readSse } from "../../helpers/sse.ts";

const CALL = "/mcp-lite/v1/calltools";

function call(params: Record<string, unknown>, id: string | number = 1): Request {
  return post(CALL, { jsonrpc: "2.0", id, method: "tools/call", params });
}

describe("MCP-lite elicitation rounds", () => {
  it("asks with response_type elicitation; the client calls again with inputResponses and requestState", async () => {
    const { server, counters } = jobServer();
    const params = { name: "book_trip", arguments: { city: "Lisbon" } };
    const first = await (await server.fetch(call(params, "trip-1"))).json();
    assert.deepEqual(Object.keys(first.result), ["_meta"]);
    const meta = first.result._meta;
    assert.equal(meta.response_type, "elicitation");
    assert.deepEqual(meta.input_requests, {
      traveller: {
        method: "elicitation/create",
        params: {
          mode: "form",
          message: "Who travels?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
      },
    });
    assert.match(meta.request_state, /^mcl1\./);

    const second = await (await server.fetch(call({
      ...params,
      inputResponses: { traveller: { action: "accept", content: { name: "Alice" } } },
      requestState: meta.request_state,
    }, "trip-2"))).json();
    assert.equal(second.result._meta.response_type, "elicitation");
    assert.deepEqual(Object.keys(second.result._meta.input_requests).sort(), ["confirm", "roots"]);

    const done = await (await server.fetch(call({
      ...params,
      inputResponses: { confirm: { action: "accept", content: { ok: true } }, roots: { roots: [] } },
      requestState: second.result._meta.request_state,
    }, "trip-3"))).json();
    assert.equal(done.id, "trip-3");
    assert.equal(done.result._meta.response_type, "answer");
    assert.equal(done.result.structuredContent.name, "Alice");
    assert.deepEqual([counters.holds, counters.charges], [1, 1]);
  });

  it("answers a tampered state with JSON-RPC -32602 (HTTP 200), never a re-prompt", async () => {
    const { server } = jobServer({ logger: false }); // a tampered state on purpose: no error line
    const params = { name: "book_trip", arguments: { city: "Lisbon" } };
    const first = await (await server.fetch(call(params))).json();
    const response = await server.fetch(call({
      ...params,
      inputResponses: { traveller: { action: "accept", content: { name: "Alice" } } },
      requestState: first.result._meta.request_state + "-TAMPERED",
    }));
    assert.equal(response.status, 200);
    const body = await response.json();
    assert.equal(body.result, undefined);
    assert.deepEqual(body.error, {
      code: -32602,
      message: "Invalid or expired requestState",
      data: { code: "invalid_params", reason: "invalid_request_state" },
    });
  });

  it("answers inputResponses that are not an object with -32602", async () => {
    const { server } = jobServer();
    const params = { name: "book_trip", arguments: { city: "Lisbon" } };
    const first = await (await server.fetch(call(params))).json();
    for (const bad of [42, null, "yes"]) {
      const body = await (await server.fetch(
        call({ ...params, inputResponses: bad, requestState: first.result._meta.request_state }),
      )).json();
      assert.equal(body.error.code, -32602);
    }
  });

  it("runs rounds over SSE too: the elicitation is the done event", async () => {
    const { server } = jobServer();
    const response = await server.fetch(
      post(CALL, {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "book_trip", arguments: { city: "Kyiv" } },
      }, {
        accept: "text/event-stream",
      }),
    );
    const events = (await readSse(response)).filter((e) => e.event !== "heartbeat");
    assert.deepEqual(events.map((e) => e.event), ["done"]);
    const meta = JSON.parse(events[0].data)._meta;
    assert.equal(meta.response_type, "elicitation");
    assert.deepEqual(Object.keys(meta.input_requests), ["traveller"]);
  });
});
