/**
 * `createServer()` of `@mcplite/sdk/lite`: MCP-lite is the one default wire, so that the MCP binding is
 * bundled only by a server that lists it.
 *
 * @module
 */
import { mcpLiteBinding } from "../bindings/mcplite/handler.ts";
import type { ServerOptions } from "../server/options.ts";
import { Server } from "../server/server.ts";

/**
 * Creates a server on MCP-lite (`/mcp-lite/v1`) unless `bindings` lists the wires. Everything else is
 * `createServer()` of `@mcplite/sdk`.
 *
 * @param options The name, version and settings; `bindings` lists the wires (default: MCP-lite).
 * @returns The server.
 * @throws {TypeError} When the name or version is missing, or two bindings claim one path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer, mcpBinding, mcpLiteBinding } from "./mod.ts";
 *
 * // MCP as well, named by the caller: only then is its binding bundled.
 * const server = createServer({ name: "both", version: "1.0.0", bindings: [mcpLiteBinding(), mcpBinding()] });
 * const ping = await server.fetch(new Request("http://localhost/mcp", {
 *   method: "POST",
 *   headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
 *   body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
 * }));
 * assert.equal(ping.status, 200);
 * ```
 */
// deno-lint-ignore ban-types
export function createServer(options: ServerOptions): Server<{}> {
  return new Server({ ...options, bindings: options.bindings ?? [mcpLiteBinding()] });
}
