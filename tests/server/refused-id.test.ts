/**
 * A request authentication refuses is answered with its own JSON-RPC id (JSON-RPC 2.0 §5) on the
 * JSON-RPC wires (MCP, MCP-lite `calltools`), read from a small body only: a body over 16 KiB, a batch
 * or a body that is not JSON-RPC is answered with `null`, as before.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer, defineTool } from "../../mod.ts";
import { bearer, opaqueAuth } from "../helpers/opaque-auth.ts";
import { post } from "../helpers/request.ts";

const server = createServer({ name: "gated", version: "1.0.0", auth: opaqueAuth() })
  .tool(defineTool("ping").describe("Answers pong").handle(() => "pong"));

const list = (id: unknown) => ({ jsonrpc: "2.0", id, method: "tools/list", params: {} });
const accept = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };

async function refused(request: Request): Promise<{ status: number; id: unknown }> {
  const response = await server.fetch(request);
  const body = await response.json();
  return { status: response.status, id: body.id };
}

describe("an authentication refusal answers the request's id", () => {
  it("MCP: no token, a bad token: 401 with the id sent (a number, a string)", async () => {
    assert.deepEqual(await refused(post("/mcp", list(42), accept)), { status: 401, id: 42 });
    assert.deepEqual(await refused(post("/mcp", list("req-7"), { ...accept, ...bearer("nobody") })), {
      status: 401,
      id: "req-7",
    });
  });

  it("MCP-lite calltools: 401 with the id sent", async () => {
    const call = { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "ping", arguments: {} } };
    assert.deepEqual(await refused(post("/mcp-lite/v1/calltools", call)), { status: 401, id: 9 });
  });

  it("a body over 16 KiB, a batch, or no JSON-RPC: null, the body left unread or unparsed", async () => {
    const large = { ...list(5), params: { _meta: { padding: "x".repeat(20_000) } } };
    assert.deepEqual(await refused(post("/mcp", large, accept)), { status: 401, id: null });
    assert.deepEqual(await refused(post("/mcp", [list(6)], accept)), { status: 401, id: null });
    assert.deepEqual(await refused(post("/mcp", "{not json", accept)), { status: 401, id: null });
  });

  it("an authenticated request is answered as usual", async () => {
    const response = await server.fetch(post("/mcp", list(3), { ...accept, ...bearer("reader") }));
    assert.equal(response.status, 200);
    assert.equal((await response.json()).id, 3);
  });
});
