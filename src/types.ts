/**
 * `@mcplite/sdk/types`: every type the public API names that its users rarely write down: the
 * builders `defineTool()` and friends return, handler and content-block shapes, the caller's metadata,
 * options, results and schema inference. The client's types are in `@mcplite/sdk/client`. Types only:
 * importing it loads no code. Import them to annotate your own code.
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
export type { ArgTransform, ToolTransform, TransformedInput } from "./tool/transform-tool.ts";
export type { CallArguments, ServerCallOptions, ToolMap } from "./server/server.ts";
export type { EndEvent, EndEventFits, EventDefinition, EventsOptions } from "./core/definitions/event.ts";
export type { TokenOptions } from "./server/server-options.ts";
export type { CallerShare, Limits } from "./core/instance/budgets.ts";
export type { ProtocolVersion } from "./server/protocol-versions.ts";
export type { CorsOptions } from "./server/cors.ts";
export type { Icon } from "./core/definitions/icon.ts";
export type { ServerCardOptions, ServerCardRepository } from "./server/server-card.ts";
export type { HeadersLike } from "./internal/headers-like.ts";
export type { MessageMiddleware } from "./message-middleware/message-middleware.ts";
export type { Fetchable, Listener, ServeOptions } from "./server/serve.ts";
export type { RedeemArgs } from "./core/long-running/redeem-args.ts";
export type {
  SignalUrlOptions,
  StepOptions,
  WaitOptions,
  WaitSchema,
  WorkContext,
} from "./core/long-running/work-context.ts";
export type { PromiseRetry, RetryBackoff } from "./core/definitions/retry-options.ts";
export type { Jsonify } from "./core/long-running/jsonify.ts";
export type {
  CancelHandler,
  HandlerReturn,
  LongRunningOptions,
  RedeemHandler,
  StreamHandler,
  ToolContext,
  ToolDescriptor,
  ToolHandler,
} from "./core/definitions/tool.ts";
export type { ResourceBuilder } from "./resource/define-resource.ts";
export type { ReadHandler, ResourceContentsInput } from "./core/definitions/resource.ts";
export type { UriTemplate, UriVariables } from "./core/definitions/uri-template.ts";
export type { PromptBuilder } from "./prompt/define-prompt.ts";
export type { PromptArgument, PromptHandler, PromptMessageInput, PromptReturn } from "./core/definitions/prompt.ts";
export type { CompletionContext } from "./core/definitions/completer.ts";
export type {
  CompiledSchema,
  InferSchemaInput,
  InferSchemaOutput,
  JsonSchema,
  StandardResult,
  StandardSchemaV1,
  ValidationIssue,
  ValidationResult,
} from "./core/schema.ts";
export type { ClientInfo, ClientView, Wire } from "./core/call/call-context.ts";
export type {
  CreateMessageResult,
  ElicitResult,
  InputRequest,
  ListRootsResult,
  ResourceRequest,
} from "./core/call/call-sink.ts";
export type { FormElicitation, UrlElicitation, UrlElicitResult } from "./core/call/elicitation.ts";
export type {
  SampleParams,
  SamplingContent,
  SamplingMessage,
  SamplingTool,
  ToolChoice,
  ToolResultContent,
  ToolUseContent,
} from "./core/call/sampling.ts";
export type { PromiseOptions, ToolPromise } from "./core/call/tool-promise.ts";
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
} from "./core/results/result.ts";
export type { ErrorReplacement } from "./errors/error.ts";
export type { ErrorReporter } from "./core/instance/runtime.ts";
export type { GroupOptions } from "./server/server-group.ts";
export type { MemoryResultStoreOptions, StoredResult } from "./jobs/result-store.ts";
export type { QueueItem, RunAgain, WorkQueue } from "./jobs/work-queue.ts";
export type { Capability } from "./server/server-capability.ts";
