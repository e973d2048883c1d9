import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { modernMeta, post } from "../../helpers/request.ts";
import { mcpServer, send } from "./mcp-helpers.ts";

const server = mcpServer();

const batch = (headers: Record<string, string> = {}) =>
  post("/mcp", [
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: "two", method: "nope" },
    { jsonrpc: "2.0", id: 3, method: "tools/list" },
    { jsonrpc: "2.0", id: 4, method: "resources/read", params: { uri: "docs://readme" } },
  ], headers);

describe("JSON-RPC batches", () => {
  it("answers a 2025-03-26 batch (no version header) with one array, in order, without notifications", async () => {
    for (const headers of [{}, { "mcp-protocol-version": "2025-03-26" }] as Record<string, string>[]) {
      const { status, body } = await send(server, batch(headers));
      assert.equal(status, 200);
      assert.deepEqual(body.map((m: { id: unknown }) => m.id), [1, "two", 3, 4]);
      // 2025-03-26 has no structuredContent: the result's JSON travels as text.
      assert.deepEqual(body[0].result, { content: [{ type: "text", text: '{"sum":3}' }] });
      assert.equal(body[1].error.code, -32601);
      assert.ok(Array.isArray(body[2].result.tools));
      assert.equal(body[3].result.contents[0].text, "# Read me");
    }
  });

  it("answers a batch of notifications only with 202", async () => {
    const response = await server.fetch(post("/mcp", [{ jsonrpc: "2.0", method: "notifications/initialized" }]));
    assert.equal(response.status, 202);
    assert.equal(await response.text(), "");
  });

  it("refuses batches under any other revision with 400/-32600", async () => {
    for (const version of ["2025-06-18", "2025-11-25", "2026-07-28"]) {
      const { status, body } = await send(server, batch({ "mcp-protocol-version": version }));
      assert.equal(status, 400, version);
      assert.equal(body.error.code, -32600);
    }
  });

  it("refuses a batch carrying a 2026-07-28 envelope, and an empty batch", async () => {
    const modernBatch = post("/mcp", [{
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { _meta: modernMeta() },
    }]);
    assert.equal((await send(server, modernBatch)).status, 400);
    const empty = await send(server, post("/mcp", []));
    assert.equal(empty.status, 400);
    assert.equal(empty.body.error.code, -32600);
  });

  it("refuses initialize inside a batch, and answers malformed elements one by one", async () => {
    const { body } = await send(
      server,
      post("/mcp", [
        { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {} } },
        { jsonrpc: "1.0", id: 2, method: "tools/list" },
        { jsonrpc: "2.0", id: 3, method: "ping" },
      ]),
    );
    assert.equal(body[0].error.code, -32600);
    assert.equal(body[1].error.code, -32600);
    assert.deepEqual(body[2].result, {});
  });

  it("cannot ask the client anything inside a batch: elicitation fails as a tool error", async () => {
    const asking = mcpServer();
    const { body } = await send(
      asking,
      post("/mcp", [{
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "confirm", arguments: { what: "x" } },
      }]),
    );
    assert.equal(body[0].error.code, -32021);
    assert.deepEqual(body[0].error.data.requiredCapabilities, { elicitation: {} });
  });
});
