/**
 * The typed client of @mcplite/sdk: tool names, arguments and results inferred from the server's type,
 * over MCP-lite (HTTP + SSE), MCP Streamable HTTP (2026-07-28, falling back to the 2025 handshake) or
 * in process, with promises redeemed and input rounds answered by the client itself. It loads no server code, and
 * runs in Deno, Bun, Node 20+, browsers and Workers.
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
 * Its errors are `@mcplite/sdk/errors`'; OAuth is `@mcplite/sdk/client/auth`; other wires' transports have entries.
 *
 * @module
 */
export { Client } from "./client.ts";
export { createClient } from "./create-client.ts";
export type { ClientOptions } from "./client.ts";
export type { CallHandle, CallOptions, ToolInput, ToolName, ToolOutput, ToolStream } from "./client-types.ts";
export type { CallResult } from "./read-result.ts";
export { resultValue } from "./read-result.ts";
export type { ElicitAnswer, ElicitRequest, FormElicitRequest, InputHandlers, UrlElicitRequest } from "./input.ts";
export type { Progress, ToolInfo, Transport } from "./transport.ts";
export type { ClientAuth } from "./oauth/oauth.ts";
export { SkillVerificationError } from "./skill-verification-error.ts";
// Each transport of its own wire has its entry point ("@mcplite/sdk/client/grpc", "/client/stdio",
// "/client/websocket", "/client/webtools"); the authorization flows theirs ("@mcplite/sdk/client/auth").
export {
  type AnthropicToolsOptions,
  type OpenAIToolsOptions,
  toAnthropicTools,
  toOpenAIResponsesTools,
  toOpenAITools,
} from "./tool-shapes.ts";
// The client's types: options, listings, input rounds and the Transport contract.
export type { RetryEvent } from "./retry.ts";
export type { ListOptions, RequestOptions, ToolProxy, ToolsOf } from "./client-types.ts";
export type {
  EventInfo,
  EventPoll,
  EventsApi,
  EventsOf,
  EventStream,
  EventSubscription,
  PollOptions,
  StreamOptions,
  SubscribeOptions,
} from "./event-types.ts";
export type { ProbedName } from "./tool-proxy.ts";
export type { InputContext, RequestedResource, ResourceAnswer, Root, SampleAnswer } from "./input.ts";
export type {
  ClientTelemetry,
  LogEntry,
  OutgoingRequest,
  Reply,
  RequestContext,
  TaskInfo,
  TaskStatus,
  ToolCallRequest,
  ToolExecution,
  ToolListing,
  TraceRequest,
} from "./transport.ts";
export type { HttpOptions } from "./http.ts";
export type { FetchTarget } from "./transports/in-process.ts";
export type { RetryOptions } from "./retry.ts";
export type { LoadedSkill, SkillEntry, SkillResource, SkillsApi } from "./client-skills.ts";
