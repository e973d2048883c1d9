/**
 * `@mcplite/sdk/lite`: the same API as `@mcplite/sdk`, with one difference: `createServer()` serves
 * MCP-lite (`/mcp-lite/v1`) only unless `bindings` lists others. A bundler then leaves the MCP binding
 * out of a server that does not name it (`createServer` of the main entry names `mcpBinding()` as a
 * default, so it is always bundled there). Moving a server over is one line: the import.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "./mod.ts";
 *
 * const add = defineTool("add")
 *   .describe("Adds two numbers")
 *   .input(v.object({ a: v.number(), b: v.number() }))
 *   .handle(({ a, b }) => ({ sum: a + b }));
 * const server = createServer({ name: "math", version: "1.0.0" }).tool(add);
 *
 * const mcp = await server.fetch(new Request("http://localhost/mcp", { method: "POST", body: "{}" }));
 * assert.equal(mcp.status, 404); // no MCP binding unless listed
 * const outcome = await server.call("add", { a: 1, b: 2 });
 * assert.equal(outcome.kind, "answer");
 * ```
 *
 * @module
 */
export * from "../../mod.ts";
export { createServer } from "./create-server.ts";
