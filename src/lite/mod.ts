/**
 * `@mcplite/sdk/lite`: the API of `@mcplite/sdk` for a smaller bundle. Its `createServer()` serves MCP-lite
 * (`/mcp-lite/v1`) only unless `bindings` lists others, and takes every optional capability as a value this entry
 * exports (`longRunning`, `inputRounds`, `group`), so a bundler leaves out what a server does not name; `cors()` and
 * `auth` (`jwtAuth()`, `protectedResource()`) bring their code as they do on the root. Moving a server over is the import line, plus the capabilities it uses in its options. Its
 * values are the root's; its types stay in the root (`import type { Tool } from "@mcplite/sdk"`): one home each.
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
export {
  audio,
  cors,
  createContextKey,
  createMemoryResultStore,
  defineExtension,
  definePrompt,
  defineResource,
  defineTool,
  embeddedResource,
  env,
  fail,
  image,
  invoke,
  mcpBinding,
  mcpLiteBinding,
  resourceLink,
  runWorker,
  serve,
  sessionStreams,
  signals,
  SUPPORTED_PROTOCOL_VERSIONS,
  text,
  toolResult,
  toolSearch,
  transformTool,
} from "../../mod.ts";
export { createServer } from "../assembly/create-lite-server.ts";
export { longRunning } from "../assembly/long-running-support.ts";
export { inputRounds } from "../assembly/input-rounds-support.ts";
export { group } from "../assembly/group-support.ts";
export type { LiteServerOptions } from "../assembly/create-lite-server.ts";
