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
  CompiledSchema,
  InferSchemaInput,
  InferSchemaOutput,
  JsonSchema,
  SchemaInput,
  StandardSchemaV1,
  ValidationIssue,
} from "./src/tool/schema.ts";
export { defineResource, ResourceBuilder } from "./src/resource/define-resource.ts";
export type {
  AnyResource,
  CacheHint,
  ReadHandler,
  ReadValue,
  Resource,
  ResourceContentsInput,
  ResourceDescriptor,
  ResourceTemplateDescriptor,
} from "./src/resource/resource-def.ts";
export type { UriTemplate, UriVariableNames, UriVariables } from "./src/resource/uri-template.ts";
export { definePrompt, PromptBuilder } from "./src/prompt/define-prompt.ts";
export type {
  AnyPrompt,
  Prompt,
  PromptArgument,
  PromptDescriptor,
  PromptHandler,
  PromptMessage,
  PromptMessageInput,
  PromptResult,
  PromptReturn,
  PromptRole,
  PromptTypes,
} from "./src/prompt/prompt-def.ts";
export type { Completer, CompletionContext, CompletionResult } from "./src/completion/completer.ts";
export type { McpOptions, McpSettings } from "./src/bindings/mcp/options.ts";
export { createServer, Server } from "./src/server/create-server.ts";
export type { CallOptions, ToolMap } from "./src/server/create-server.ts";
export type { InputHandler } from "./src/server/drive-call.ts";
export type { ResolvedOptions, ServerOptions } from "./src/server/options.ts";
export type { Binding, RouteHandler, Routes, ServerCore } from "./src/server/server-core.ts";
export { Registry } from "./src/core/registry.ts";
export type { ErrorReporter, RegistryChange } from "./src/core/registry.ts";
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
  SignalSource,
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
export type {
  AnswerOutcome,
  CallOutcome,
  FailureOutcome,
  FinalOutcome,
  InputRequiredOutcome,
  Outcome,
  PromiseOutcome,
  StreamOutcome,
} from "./src/core/outcome.ts";
export { isToolPromise, ToolPromise } from "./src/core/tool-promise.ts";
export type { DeferOptions, DeferredWork, PromiseOptions, PromiseStateOf } from "./src/core/tool-promise.ts";
export { createMemoryResultStore } from "./src/core/result-store.ts";
export type { MemoryResultStoreOptions, ResultStore, StoredResult } from "./src/core/result-store.ts";
export { InputRequiredSignal, InputRound } from "./src/core/input-round.ts";
export type { RoundScope } from "./src/core/input-round.ts";
export { Continuations } from "./src/core/continuations.ts";
export type { ContinuationsOptions } from "./src/core/continuations.ts";
export { REDEEM_TOOL } from "./src/tool/redeem-tool.ts";
export type { CancelHandler, LongRunningOptions, RedeemHandler } from "./src/tool/tool-def.ts";
export type { TokenOptions } from "./src/server/options.ts";
export { createTokenCodec, isTokenError, TokenError } from "./src/codec/mod.ts";
export type {
  Secret,
  SecretInput,
  TokenClaims,
  TokenCodec,
  TokenCodecOptions,
  TokenExpectation,
  TokenFailure,
  TokenInput,
} from "./src/codec/mod.ts";
