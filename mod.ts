/**
 * @mcplite/sdk: typed, stateless tools for LLM agents. Define each tool once with valibot; serve it on
 * MCP-lite (HTTP + SSE) and MCP (2026-07-28 natively, the 2025 revisions as a shim) from one `fetch`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "./mod.ts";
 *
 * const search = defineTool("search_documents")
 *   .type("query")
 *   .describe("Search through available documents")
 *   .input(v.object({ query: v.string(), limit: v.optional(v.number(), 10) }))
 *   .output(v.object({ hits: v.array(v.string()) }))
 *   .handle(({ query, limit }) => ({ hits: [`${query} (1 of ${limit})`] }));
 *
 * const server = createServer({ name: "docs", version: "1.0.0" }).tool(search);
 * // Deno.serve(server.fetch)  ·  Bun.serve({ fetch: server.fetch })  ·  export default server
 *
 * const outcome = await server.call("search_documents", { query: "mcp" });
 * assert.deepEqual(outcome.result.structuredContent, { hits: ["mcp (1 of 10)"] });
 * ```
 *
 * @module
 */
export { defineTool, ToolBuilder } from "./src/tool/define-tool.ts";
export type {
  AnyTool,
  HandlerReturn,
  InferToolArgs,
  InferToolInput,
  InferToolOutput,
  StreamHandler,
  Tool,
  ToolAnnotations,
  ToolDescriptor,
  ToolHandler,
} from "./src/tool/tool-def.ts";
export type {
  InferSchemaInput,
  InferSchemaOutput,
  JsonSchema,
  SchemaInput,
  StandardSchemaV1,
  ValidationIssue,
} from "./src/tool/schema.ts";
export { createServer, Server } from "./src/server/create-server.ts";
export type { CallOptions, ToolMap } from "./src/server/create-server.ts";
export type { ResolvedOptions, ServerOptions } from "./src/server/options.ts";
export type { Binding, RouteHandler, Routes, ServerCore } from "./src/server/server-core.ts";
export { Registry } from "./src/core/registry.ts";
export type { ErrorReporter } from "./src/core/registry.ts";
export { env, serve } from "./src/server/serve.ts";
export type { Fetchable, Listener, ServeOptions } from "./src/server/serve.ts";
export { CallContext, createContextKey, LOG_LEVELS } from "./src/core/call-context.ts";
export type {
  AuthInfo,
  CallMeta,
  CallSink,
  ClientInfo,
  ContextKey,
  CreateMessageResult,
  ElicitResult,
  InputMethod,
  InputRequest,
  ListRootsResult,
  LogLevel,
  Wire,
} from "./src/core/call-context.ts";
export {
  ErrorCode,
  isProtocolError,
  isToolError,
  McpliteError,
  ProtocolError,
  ToolError,
} from "./src/core/error.ts";
export type { McpliteErrorOptions } from "./src/core/error.ts";
export {
  audio,
  fail,
  image,
  isContentBlock,
  isToolResult,
  resource,
  resourceLink,
  text,
  toolResult,
} from "./src/core/result.ts";
export type {
  AudioContent,
  ContentAnnotations,
  ContentBlock,
  EmbeddedResource,
  ImageContent,
  ResourceContents,
  ResourceLink,
  TextContent,
  ToolResult,
} from "./src/core/result.ts";
export type { Middleware } from "./src/core/registry.ts";
export type { ToolCall } from "./src/core/middleware.ts";
export type { AnswerOutcome, FailureOutcome, FinalOutcome, Outcome, StreamOutcome } from "./src/core/outcome.ts";
