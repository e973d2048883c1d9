/**
 * The typed client of @mcplite/sdk: tool names, arguments and results inferred from the server's type,
 * over MCP-lite (HTTP + SSE), MCP Streamable HTTP (2026-07-28, falling back to the 2025 handshake) or
 * in process, with promises redeemed, input rounds answered and tasks polled by the client itself.
 * It loads no server code, and runs in Deno, Bun, Node 20+, browsers and Workers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "../../mod.ts";
 * import { createClient, toAnthropicTools } from "./mod.ts";
 *
 * const search = defineTool("search_documents")
 *   .describe("Search through available documents")
 *   .input(v.object({ query: v.string(), limit: v.optional(v.number(), 10) }))
 *   .output(v.object({ hits: v.array(v.string()) }))
 *   .handle(({ query, limit }) => ({ hits: [`${query} (1 of ${limit})`] }));
 * const server = createServer({ name: "docs", version: "1.0.0" }).tool(search);
 *
 * // In process here; over the network: createClient<typeof server>("http://localhost:8000")
 * const client = createClient(server);
 * const { hits } = await client.call("search_documents", { query: "mcp" });
 * assert.deepEqual(hits, ["mcp (1 of 10)"]);
 * assert.equal(toAnthropicTools(await client.listTools())[0].name, "search_documents");
 * ```
 *
 * @module
 */
export { Client } from "./client.ts";
export { createClient } from "./create-client.ts";
export type { ClientOptions, ListOptions } from "./client.ts";
export type { Backoff } from "./call-loop.ts";
export type { RetryEvent, RetryOptions } from "./retry.ts";
export type {
  CallHandle,
  CallOptions,
  FailureMode,
  MapOf,
  RequestOptions,
  ToolInput,
  ToolName,
  ToolOutput,
  ToolProxy,
  ToolsOf,
  ToolStream,
  UntypedTools,
} from "./types.ts";
export {
  AuthorizationError,
  CancelledError,
  ClientError,
  ClientErrorCode,
  InputRequiredError,
  InvalidArgumentsError,
  isClientError,
  RpcError,
  TimeoutError,
  ToolFailedError,
  ToolNotFoundError,
  TransportError,
} from "./errors.ts";
export type { ClientErrorOptions } from "./errors.ts";
export type { CallResult } from "./result.ts";
export { valueOf } from "./result.ts";
export type {
  ElicitAnswer,
  ElicitRequest,
  InputContext,
  InputHandlers,
  RequestedResource,
  ResourceAnswer,
  Root,
  SampleAnswer,
} from "./input.ts";
export { withDefaults } from "./input.ts";
export { isTransport } from "./transport.ts";
export type {
  CacheScope,
  ClientTelemetry,
  LogEntry,
  Progress,
  Reply,
  RequestContext,
  TaskInfo,
  TaskStatus,
  ToolCallRequest,
  ToolExecution,
  ToolInfo,
  ToolListing,
  Transport,
} from "./transport.ts";
export type { FetchLike, HeadersOption, HttpOptions } from "./http.ts";
export { clientCredentials, oauth } from "./oauth/oauth.ts";
export type { AuthOptions, ClientAuth, ClientCredentialsOptions, OAuthOptions } from "./oauth/oauth.ts";
export { memoryTokenStore } from "./oauth/token-store.ts";
export type { StoredAuthorization, StoredClient, StoredTokens, TokenStore } from "./oauth/token-store.ts";
export { parseBearerChallenge } from "./oauth/challenge.ts";
export type { BearerChallenge } from "./oauth/challenge.ts";
export { createMcpliteTransport, MCPLITE_BASE_PATH } from "./transports/mcplite.ts";
export type { McpliteTransportOptions } from "./transports/mcplite.ts";
export { createMcpTransport } from "./transports/mcp.ts";
export type { McpTransportOptions } from "./transports/mcp.ts";
export { createAutoTransport } from "./transports/auto.ts";
export type { AutoTransportOptions } from "./transports/auto.ts";
export { createInProcessTransport } from "./transports/in-process.ts";
export type { FetchTarget, InProcessOptions } from "./transports/in-process.ts";
export { encodeHeaderValue, headerParamsOf } from "./mcp-headers.ts";
export type { HeaderParam } from "./mcp-headers.ts";
export { createWebtoolsTransport } from "./transports/webtools.ts";
export type { WebtoolsTransportOptions } from "./transports/webtools.ts";
export { checkPin, pinOf, WebtoolsPinError } from "./webtools-pin.ts";
export type { WebtoolsPin } from "./webtools-pin.ts";
export { webtoolsToAiTools } from "./webtools-ai.ts";
export { SkillVerificationError } from "./skills.ts";
export type { LoadedSkill, SkillEntry, SkillResource, SkillsApi, SkillsBackend } from "./skills.ts";
export type { AiExecuteOptions, AiToolDefinition, AiToolsOptions, ToolCaller, WebtoolsCall } from "./webtools-ai.ts";
// The gRPC transport loads protobuf, so it has its own entry point: "@mcplite/sdk/client/grpc".
export { toAnthropicTools, toOpenAIResponsesTools, toOpenAITools } from "./tool-shapes.ts";
export type { AnthropicTool, OpenAIChatTool, OpenAIResponsesTool, ToolShapeOptions } from "./tool-shapes.ts";
