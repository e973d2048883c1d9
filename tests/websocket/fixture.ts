/**
 * The server the WebSocket tests drive, on every runtime (Deno's and Bun's `serve()`, Node's
 * `@hono/node-server` with `attachWebSocket()`): MCP-lite and the WebSocket binding (2 KiB messages),
 * the connection tools, `auth` accepting `good.token` as `ada` when asked for, and a request middleware
 * that lets calls of `keyed` through only with the header `x-api-key: k`.
 */
import assert from "node:assert/strict";
import * as v from "valibot";
import { createServer, defineTool, mcpLiteBinding } from "../../mod.ts";
import { protectedResource } from "../../src/auth/mod.ts";
import { ErrorCode, ProtocolError, ToolError } from "../../src/errors/mod.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { connectionTools } from "../helpers/connection-tools.ts";
import { TestSocket } from "./socket.ts";
import { rawWebSocket } from "./raw-client.ts";

/** Makes the server; `aborted` receives the reason of each aborted `slow` call. */
export function fixture(auth = false) {
  const aborted: string[] = [];
  const tools = connectionTools(aborted);
  const server = createServer({
    name: "ws",
    secret: "a test secret of thirty-two bytes!",
    version: "1.0.0",
    bindings: [mcpLiteBinding(), webSocketBinding({ maxMessageBytes: 2048 })],
    auth: auth
      ? protectedResource({
        resource: "http://127.0.0.1/",
        authorizationServers: ["https://auth.example"],
        verify: (token) => (token === "good.token" ? { subject: "ada", scopes: [] } : undefined),
      })
      : undefined,
  })
    .use(async (call, next) => {
      if (call.name === "keyed" && call.ctx.meta.headers.get("x-api-key") !== "k") {
        throw new ProtocolError(ErrorCode.Unauthenticated, "an API key is required");
      }
      return await next();
    })
    .tool(
      defineTool("add").describe("The add tool").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) =>
        a + b
      ),
    )
    .tool(defineTool("whoami").describe("The whoami tool").handle((_args, ctx) => ctx.auth?.subject ?? "nobody"))
    .tool(defineTool("keyed").describe("The keyed tool").handle(() => "opened"))
    .tool(tools.count)
    .tool(tools.slow)
    .tool(tools.ask)
    .tool(
      defineTool("fails").describe("The fails tool").handle(() => {
        throw new ToolError("the quota is exhausted");
      }),
    );
  return { server, aborted };
}

/** A `tools/call` request. */
export const call = (
  id: unknown,
  name: string,
  args: Record<string, unknown> = {},
  meta?: Record<string, unknown>,
) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args, ...(meta && { _meta: meta }) },
});

/**
 * Sends the fixture's server bad frames on one socket (not JSON, not a request, an unknown method, over
 * 2 KiB) and checks each is answered (-32700, -32600, -32601, -32600) with the socket still serving.
 */
export async function assertBadFramesAnswered(url: string): Promise<void> {
  const socket = await TestSocket.open(url);
  socket.send("not json");
  await socket.next((m) => m.error?.code === -32700);
  socket.send({ jsonrpc: "2.0", id: 7 });
  assert.equal((await socket.answer(7)).error.code, -32600);
  socket.send({ jsonrpc: "2.0", id: 8, method: "no/such" });
  assert.equal((await socket.answer(8)).error.code, -32601);
  socket.send(call(9, "add", { a: 1, b: "x".repeat(4000) }));
  const tooLarge = await socket.next((m) => m.id === null && /larger than 2048 bytes/.test(m.error?.message));
  assert.equal(tooLarge.error.code, -32600);
  socket.send(call(10, "add", { a: 40, b: 2 }));
  assert.equal((await socket.answer(10)).result.content[0].text, "42");
  assert.equal(socket.closed, false);
  await socket.close();
}

/**
 * Checks that every message of a socket runs with its upgrade request's headers: calls of `keyed` pass
 * the fixture's header middleware (over MCP-lite and MCP) on a socket opened with `x-api-key: k`, and are refused on one
 * opened without it (or with another key); a batch is refused naming the WebSocket, not stdio.
 */
export async function assertUpgradeHeadersSeen(port: number): Promise<void> {
  const path = "/mcp-lite/v1/ws";
  const keyed = await rawWebSocket(port, path, { "x-api-key": "k" });
  keyed.send(call(1, "keyed"));
  keyed.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
  assert.equal((await keyed.answer(1)).result?.content[0].text, "opened");
  assert.ok((await keyed.answer(2)).result.tools.some((tool: { name: string }) => tool.name === "keyed"));
  keyed.send([call(3, "add", { a: 1, b: 2 })]);
  const batch = await keyed.answer(null);
  assert.equal(batch.error.code, -32600);
  assert.equal(batch.error.message, "Invalid Request: batches are not supported on a WebSocket");
  keyed.destroy();
  // MCP (a 2025 session on the socket) runs with them too.
  const session = await rawWebSocket(port, path, { "x-api-key": "k" });
  session.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  await session.answer(1);
  session.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  session.send(call(2, "keyed"));
  assert.equal((await session.answer(2)).result?.content[0].text, "opened");
  session.destroy();
  for (const headers of [{}, { "x-api-key": "wrong" }] as Record<string, string>[]) {
    const bare = await rawWebSocket(port, path, headers);
    bare.send(call(1, "keyed"));
    const refused = await bare.answer(1);
    assert.equal(refused.result, undefined);
    assert.match(refused.error.message, /an API key is required/);
    bare.destroy();
  }
}
