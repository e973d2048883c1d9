/**
 * `createServer()`: a server with the default wires, MCP-lite (`/mcp-lite/v1`) and MCP (`/mcp`),
 * unless the `bindings` option lists others, with every optional capability (long-running tools,
 * input rounds, `group()`, CORS and OAuth brought by its `cors` and `auth` values, the server card). The
 * `Server` itself knows no wire; this is where the defaults are chosen.
 *
 * @module
 */
import { mcpBinding } from "../bindings/mcp/handler.ts";
import { mcpLiteBinding } from "../bindings/mcplite/handler.ts";
import { longRunning } from "./long-running-support.ts";
import { inputRounds } from "./input-rounds-support.ts";
import { edgeOf } from "../server/create-gate.ts";
import { group } from "./group-support.ts";
import type { AssembledServerOptions, ServerOptions } from "../server/server-options.ts";
import { Server } from "../server/server.ts";
import { withServerCard } from "../server/server-card.ts";

/**
 * Creates a server. Register tools with `.tool()`, middleware with `.use()`, then serve `server.fetch`
 * (`Deno.serve(server.fetch)`, `Bun.serve({ fetch: server.fetch })`, `export default server`).
 *
 * @param options The name, version and settings; `bindings` lists the wires (default: MCP-lite and MCP).
 * @returns The server.
 * @throws {TypeError} When the name or version is missing, two bindings claim one path, `cors` is given its options
 *   instead of `cors()`, or `auth` is a plain object (not made by `protectedResource()` or `jwtAuth()`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "../../mod.ts";
 *
 * const add = defineTool("add")
 *   .input(v.object({ a: v.number(), b: v.number() }))
 *   .output(v.object({ sum: v.number() }))
 *   .handle(({ a, b }) => ({ sum: a + b }));
 * const server = createServer({ name: "math", version: "1.0.0" }).tool(add);
 *
 * const response = await server.fetch(new Request("http://localhost/mcp-lite/v1/calltools", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } }),
 * }));
 * const { result } = await response.json();
 * assert.deepEqual(result.structuredContent, { sum: 3 });
 * ```
 */
// deno-lint-ignore ban-types
export function createServer(options: ServerOptions): Server<{}> {
  const assembled: AssembledServerOptions = {
    ...options,
    bindings: options.bindings ?? [mcpLiteBinding(), mcpBinding()],
    longRunning,
    inputRounds,
    group,
  };
  return new Server(assembled, {
    ...edgeOf(options),
    card: options.serverCard === false
      ? undefined
      : (fetch, server, routes, guard) => withServerCard(fetch, server, options.serverCard || {}, routes, guard),
  });
}
