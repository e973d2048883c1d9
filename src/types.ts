/**
 * `@mcplite/sdk/types`: every type the public API names that a tool author rarely writes down: the
 * builders `defineTool()` and friends return, handler and content-block shapes, the caller's metadata
 * and the shapes of answers from the client. Import them to annotate your own code.
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
export type { TokenOptions } from "./server/options.ts";
export type { ProtocolVersion } from "./server/protocol-versions.ts";
export type { CorsOptions } from "./server/cors.ts";
export type { HeadersLike } from "./internal/headers-like.ts";
export type { Fetchable, Listener, ServeOptions } from "./server/serve.ts";
export type { RedeemArgs } from "./core/redeem.ts";
export type {
  CancelHandler,
  HandlerReturn,
  InferToolArgs,
  JobRetry,
  LongRunningOptions,
  RedeemHandler,
  StreamHandler,
  ToolContext,
  ToolDescriptor,
  ToolHandler,
  ToolTypes,
} from "./core/tool.ts";
export type { ResourceBuilder } from "./resource/define-resource.ts";
export type { ReadHandler, ReadValue, ResourceContentsInput, ResourceTemplateDescriptor } from "./core/resource.ts";
export type { UriTemplate, UriVariableNames, UriVariables } from "./core/uri-template.ts";
export type { PromptBuilder } from "./prompt/define-prompt.ts";
export type {
  PromptArgument,
  PromptDescriptor,
  PromptHandler,
  PromptMessageInput,
  PromptResult,
  PromptReturn,
  PromptRole,
  PromptTypes,
} from "./core/prompt.ts";
export type { CompletionContext, CompletionResult } from "./core/completer.ts";
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
export type { ClientInfo, ClientView, SignalSource, Wire } from "./core/call-context.ts";
export type {
  CallSink,
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
export type { ErrorReporter } from "./core/runtime.ts";
export type { GroupOptions } from "./server/group.ts";
export type { MemoryResultStoreOptions, StoredResult } from "./core/result-store.ts";
