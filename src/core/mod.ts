/**
 * The core as bindings and carriers see it: the one module `src/bindings` and `src/stdio` import from `src/core`.
 * It names the call pipeline (`runCall`, `runRequest`, `runHandler`), the registry contract and its typed caches, the
 * errors and their codes, the outcomes and the descriptors each definition gives its lists; families used together
 * are one namespace each (`budgeting`, `scoping`, `traceContext`, `wireErrors`). Growing it is a decision
 * (`tests/boundaries.test.ts`: at most 60 names). The long-running engine is the jobs layer's, above the core:
 * bindings and carriers see it through its own facade, `src/jobs/mod.ts`.
 *
 * @module
 */
export { CacheSlot } from "./definitions/cache-slot.ts";
export { callerOf, withResultMeta } from "./call/call-context.ts";
export { createContext } from "./call/tool-call-context.ts";
// Each namespace is imported where its module stood, so that bundles keep their module order.
import * as budgeting from "./instance/budgeting.ts";
export { budgeting };
export { warnServer } from "./call/warn-server.ts";
export type { AuthInfo, CallContext, CallMeta, SignalSource } from "./call/call-context.ts";
export { asksOnlyForResources, LOG_LEVELS } from "./call/call-sink.ts";
export type { CallSink, InputRequest } from "./call/call-sink.ts";
export { completionResult } from "./definitions/completer.ts";
export type { Completer } from "./definitions/completer.ts";
export { clientViewOf } from "./call/client-view.ts";
export type { Extension, ExtensionContext } from "./definitions/extension.ts";
export { configDefaults } from "./definitions/config.ts";
import * as wireErrors from "./results/wire-errors.ts";
export { wireErrors };
export type { Feature } from "./definitions/feature.ts";
export { withCaller } from "./call/host.ts";
export type { CallOutcome } from "./call/outcome.ts";
export { callNow, runCall } from "./call/pipeline.ts";
export { runHandler } from "./call/run-handler.ts";
export { sameGroupAs } from "./call/grouped-middleware.ts";
export { runRequest } from "./call/run-request.ts";
export { streamCall } from "./call/stream-call.ts";
export type { HandlerOutcome } from "./call/run-handler.ts";
export { REDEEM_TOOL } from "./long-running/redeem-args.ts";
export { describePrompt, promptResultFromValue } from "./definitions/prompt.ts";
export type { Registry, RegistryChange } from "./definitions/registry.ts";
export { registryOf } from "./definitions/registry.ts";
export { checkCacheHint, contentsFromValue, describeResource, notFound } from "./definitions/resource.ts";
export type { AnyResource, CacheHint } from "./definitions/resource.ts";
export type { WatchedResource } from "./definitions/resource-watch.ts";
export { callerKey, heardBy } from "./call/caller-key.ts";
export { failureResult } from "./results/result.ts";
export type { ContentBlock, ToolResult } from "./results/result.ts";
export type { CompiledSchema, JsonSchema, ValidationIssue } from "./schema.ts";
import * as scoping from "./definitions/scoping.ts";
export { scoping };
export { describeTool } from "./definitions/tool.ts";
import * as traceContext from "./call/trace-context.ts";
export { traceContext };
export type { AnyTool, ToolUiOptions, ToolView } from "./definitions/tool.ts";
export type { Middleware } from "./call/middleware.ts";
