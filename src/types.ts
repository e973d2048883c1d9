/**
 * `@mcplite/sdk/types`: every type the public API names that its users rarely write down: the
 * builders `defineTool()` and friends return, handler and content-block shapes, the caller's metadata,
 * and the client's rarer types (each transport's options, listings, input-round shapes, the skills
 * API, OAuth's stored records). Types only: importing it loads no code. Import them to annotate your
 * own code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { TextContent } from "./types.ts";
 * const block: TextContent = { type: "text", text: "hello" };
 * assert.equal(block.text, "hello");
 * ```
 *
 * @module
 */
export type { ToolBuilder } from "./tool/define-tool.ts";
export type { CallableName, CallArguments, ExecutionContextLike, ToolMap } from "./server/server.ts";
export type { TokenOptions } from "./server/server-options.ts";
export type { CallerShare, Limits } from "./core/budgets.ts";
export type { ProtocolVersion } from "./server/protocol-versions.ts";
export type { CorsOptions } from "./server/cors.ts";
export type { HeadersLike } from "./internal/headers-like.ts";
export type { Fetchable, Listener, ServeOptions } from "./server/serve.ts";
export type { RedeemArgs } from "./core/redeem.ts";
export type {
  CancelHandler,
  HandlerReturn,
  InferToolArgs,
  LongRunningOptions,
  PromiseRetry,
  RedeemHandler,
  StreamHandler,
  ToolContext,
  ToolDescriptor,
  ToolHandler,
  ToolTypes,
} from "./core/tool.ts";
export type { ResourceBuilder } from "./resource/define-resource.ts";
export type { ReadHandler, ReadValue, ResourceContentsInput } from "./core/resource.ts";
export type { UriTemplate, UriVariableNames, UriVariables } from "./core/uri-template.ts";
export type { PromptBuilder } from "./prompt/define-prompt.ts";
export type {
  PromptArgument,
  PromptHandler,
  PromptMessageInput,
  PromptReturn,
  PromptRole,
  PromptTypes,
} from "./core/prompt.ts";
export type { CompletionContext } from "./core/completer.ts";
export type {
  CompiledSchema,
  InferSchemaInput,
  InferSchemaOutput,
  JsonSchema,
  NotAShape,
  StandardResult,
  StandardSchemaV1,
  ValidationIssue,
  ValidationResult,
} from "./core/schema.ts";
export type { ClientInfo, ClientView, Wire } from "./core/call-context.ts";
export type {
  CreateMessageResult,
  ElicitResult,
  InputMethod,
  InputRequest,
  ListRootsResult,
  ResourceRequest,
} from "./core/call-sink.ts";
export type { DeferOptions, PromiseOptions, PromiseStateOf, ToolPromise } from "./core/tool-promise.ts";
export type {
  AudioContent,
  ContentAnnotations,
  ContentBlockBase,
  EmbeddedResource,
  ImageContent,
  ResourceContents,
  ResourceDescriptor,
  ResourceLink,
  TextContent,
} from "./core/result.ts";
export type { ErrorReplacement, McpliteErrorOptions } from "./core/error.ts";
export type { ErrorReport, ErrorReporter } from "./core/runtime.ts";
export type { GroupOptions } from "./server/server-group.ts";
export type { MemoryResultStoreOptions, StoredResult } from "./core/result-store.ts";
// The client's types a client user rarely writes down; `@mcplite/sdk/client` exports the rest.
export type { ListOptions } from "./client/client.ts";
export type { CommonClientOptions, InProcessClientOptions, TransportClientOptions } from "./client/client-options.ts";
export type { Backoff } from "./client/call-loop.ts";
export type { RetryEvent } from "./client/retry.ts";
export type { FailureMode, MapOf, RequestOptions, ToolProxy, ToolsOf, UntypedTools } from "./client/client-types.ts";
export type { ClientErrorOptions } from "./client/errors.ts";
export type { InputContext, RequestedResource, ResourceAnswer, Root, SampleAnswer } from "./client/input.ts";
export type {
  CacheScope,
  ClientTelemetry,
  LogEntry,
  OutgoingRequest,
  Reply,
  RequestContext,
  RequestPeer,
  TaskInfo,
  TaskStatus,
  ToolCallRequest,
  ToolExecution,
  ToolListing,
  TraceRequest,
} from "./client/transport.ts";
export type { FetchLike, HeadersOption, HttpOptions } from "./client/http.ts";
export type { RetryOptions } from "./client/retry.ts";
export type {
  AuthOptions,
  ClientCredentialsOptions,
  DPoPOptions,
  EnterpriseAuthOptions,
  EnterpriseIdp,
  OAuthOptions,
  WorkloadIdentityOptions,
  WorkloadToken,
} from "./client/oauth/oauth-options.ts";
export type { StoredAuthorization, StoredClient, StoredTokens } from "./client/oauth/token-store.ts";
export type { WebCryptoKey, WebCryptoKeyPair } from "./client/oauth/web-crypto-key.ts";
export type { McpliteTransportOptions } from "./client/transports/mcplite.ts";
export type { McpTransportOptions } from "./client/transports/mcp.ts";
export type { AutoTransportOptions } from "./client/transports/auto.ts";
export type { FetchTarget, InProcessOptions } from "./client/transports/in-process.ts";
export type { WebtoolsTransportOptions } from "./client/transports/webtools.ts";
export type { WebtoolsPin } from "./client/webtools-pin.ts";
export type { LoadedSkill, SkillEntry, SkillResource, SkillsApi } from "./client/client-skills.ts";
export type {
  AiExecuteOptions,
  AiToolDefinition,
  AiToolsOptions,
  ToolCaller,
  WebtoolsCall,
} from "./client/webtools-ai.ts";
export type { AnthropicTool, OpenAIChatTool, OpenAIResponsesTool, ToolShapeOptions } from "./client/tool-shapes.ts";
// What a definition carries for the wires that serve it (tools, resources, prompts and skills bring features).
export type { Feature, Featured } from "./core/feature.ts";
export type { Capability } from "./server/server-capability.ts";
