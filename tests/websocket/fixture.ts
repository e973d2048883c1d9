/**
 * The server the WebSocket tests drive, on every runtime (Deno's and Bun's `serve()`, Node's
 * `@hono/node-server` with `attachWebSocket()`): MCP-lite and the WebSocket binding (2 KiB messages),
 * the connection tools, and `auth` accepting `good.token` as `ada` when asked for.
 */
import * as v from "valibot";
import { createServer, defineTool, mcpLiteBinding, ToolError } from "../../mod.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { connectionTools } from "../helpers/connection-tools.ts";

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
      ? {
        resource: "http://127.0.0.1/",
        authorizationServers: ["https://auth.example"],
        verify: (token) => (token === "good.token" ? { subject: "ada", scopes: [] } : undefined),
      }
      : undefined,
  })
    .tool(
      defineTool("add").describe("The add tool").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) =>
        a + b
      ),
    )
    .tool(defineTool("whoami").describe("The whoami tool").handle((_args, ctx) => ctx.auth?.subject ?? "nobody"))
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
