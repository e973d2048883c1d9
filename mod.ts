/**
 * Typed, stateless tools for LLM agents (`@mcplite/sdk`). Define each tool once with valibot; serve it on
 * MCP-lite (HTTP + SSE) and MCP (2026-07-28 natively, the 2025 revisions as a shim) from one `fetch`.
 *
 * This entry point is what a tool author uses. The types its API names live in `@mcplite/sdk/types`;
 * what a binding author needs, in `@mcplite/sdk/binding`; each optional wire and integration has its
 * own entry point (`/webtools`, `/grpc`, `/codec`, `/client`).
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
 * // Deno.serve(server.fetch) (run Deno with --unstable-no-legacy-abort, for ctx.signal)
 * // Bun.serve({ fetch: server.fetch })  ·  export default server (Workers)  ·  Node: a fetch adapter
 *
 * const outcome = await server.call("search_documents", { query: "mcp" }); // typed by the tool's input
 * assert.equal(outcome.kind, "answer");
 * if (outcome.kind === "answer") assert.deepEqual(outcome.result.structuredContent, { hits: ["mcp (1 of 10)"] });
 * ```
 *
 * @module
 */

// Defining tools, resources and prompts.
export { defineTool } from "./src/tool/define-tool.ts";
export { transformTool } from "./src/tool/transform-tool.ts";
export { defineResource } from "./src/assembly/served-resources.ts";
export { definePrompt } from "./src/assembly/served-prompts.ts";
export { defineExtension } from "./src/assembly/served-extensions.ts";
export type { AnyTool, InferToolInput, InferToolOutput, Tool, ToolAnnotations } from "./src/core/definitions/tool.ts";
export type { AnyResource, CacheHint, Resource } from "./src/core/definitions/resource.ts";
export type { AnyPrompt, Prompt, PromptMessage } from "./src/core/definitions/prompt.ts";
export type { Completer } from "./src/core/definitions/completer.ts";
export type { Extension, ExtensionContext, ExtensionMethodOptions } from "./src/core/definitions/extension.ts";
export type { SchemaInput } from "./src/core/schema.ts";

// Serving them.
export { createServer } from "./src/assembly/create-server.ts";
export type { Server } from "./src/server/server.ts";
export type { ServerOptions } from "./src/server/server-options.ts";
export { toolSearch } from "./src/tool-search/tool-search.ts";
export { cors } from "./src/server/cors-edge.ts";
export type { ToolSearchOptions } from "./src/tool-search/tool-search.ts";
export type { ServerLogger } from "./src/core/instance/logger.ts";
export type { Binding } from "./src/server/binding-contract.ts";
export { mcpBinding } from "./src/bindings/mcp/handler.ts";
export type { McpOptions } from "./src/bindings/mcp/mcp-options.ts";
export { sessionStreams, type SessionStreamsOptions } from "./src/bindings/mcp/session-streams.ts";
export type { SsePollingOptions } from "./src/bindings/mcp/sse-polling.ts";
export { mcpLiteBinding } from "./src/bindings/mcplite/handler.ts";
export type { McpliteOptions } from "./src/bindings/mcplite/handler.ts";
export { env, serve } from "./src/server/serve.ts";
export { SUPPORTED_PROTOCOL_VERSIONS } from "./src/server/protocol-versions.ts";

// What handlers and middleware receive and return.
export type { AuthInfo, CallContext, CallMeta, ContextKey } from "./src/core/call/call-context.ts";
export { createContextKey } from "./src/core/call/call-context.ts";
export type { LogLevel } from "./src/core/call/call-sink.ts";
export type { Call, Middleware, ToolCall, ToolMiddleware } from "./src/core/call/middleware.ts";
export type { CallOutcome } from "./src/core/call/outcome.ts";
export { audio, embeddedResource, fail, image, resourceLink, text, toolResult } from "./src/core/results/result.ts";
export type { ContentBlock, ToolResult } from "./src/core/results/result.ts";

// Where deferred results wait, and the queue and workers that run deferred work.
export { createMemoryResultStore } from "./src/jobs/result-store.ts";
export type { ResultStore } from "./src/jobs/result-store.ts";
export type { PutOptions, SharedStore } from "./src/store/shared-store.ts";
export type { JournalEntry, JournalStore } from "./src/jobs/journal-store.ts";
export { signals, type SignalsOptions } from "./src/assembly/signals-support.ts";
export type { SignalDelivery } from "./src/jobs/signals.ts";
export { runWorker } from "./src/jobs/worker/run-worker.ts";
export { invoke } from "./src/jobs/child-work.ts";
export type { RunWorkerOptions } from "./src/jobs/worker/run-worker.ts";
export type { Notifier } from "./src/core/instance/notifier.ts";
