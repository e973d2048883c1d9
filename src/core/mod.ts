/**
 * The core as bindings and carriers see it: the one module `src/bindings` and `src/stdio` import from
 * `src/core`. It names the call pipeline (`runCall`, `runRequest`, `runHandler`), the registry contract
 * and its typed caches, the errors and their codes, the outcomes and the descriptors each definition
 * gives its lists; families used together are one namespace each (`budgeting`, `longRunning`, `scoping`,
 * `traceContext`, `wireErrors`), which bundlers resolve to the members a file uses. Growing it is a
 * decision (`tests/boundaries.test.ts` holds bindings to it, at most 60 names).
 *
 * @module
 */
export { CacheSlot } from "./cache-slot.ts";
export { callerOf, withResultMeta } from "./call-context.ts";
export { createContext } from "./tool-call-context.ts";
// Each namespace is imported where its module stood, so that bundles keep their module order.
import * as budgeting from "./budgeting.ts";
export { budgeting };
export { warnServer } from "./warn-server.ts";
export type { AuthInfo, CallContext, CallMeta, SignalSource } from "./call-context.ts";
export { asksOnlyForResources, LOG_LEVELS } from "./call-sink.ts";
export type { CallSink, InputRequest } from "./call-sink.ts";
export { completionResult } from "./completer.ts";
export type { Completer } from "./completer.ts";
export { clientViewOf } from "./client-view.ts";
export type { Extension, ExtensionContext } from "./extension.ts";
export { configDefaults } from "./config.ts";
import * as wireErrors from "./wire-errors.ts";
export { wireErrors };
export type { Feature } from "./feature.ts";
export { withCaller } from "./host.ts";
export type { CallOutcome } from "./outcome.ts";
export { callNow, runCall } from "./pipeline.ts";
export { runHandler } from "./run-handler.ts";
export { sameGroupAs } from "./grouped-middleware.ts";
export { runRequest } from "./run-request.ts";
export { streamCall } from "./stream-call.ts";
import * as longRunning from "./long-running/engine.ts";
export { longRunning };
export type { HandlerOutcome } from "./run-handler.ts";
export { REDEEM_TOOL } from "./redeem.ts";
export { describePrompt, promptResultFromValue } from "./prompt.ts";
export type { Registry, RegistryChange } from "./registry.ts";
export { registryOf } from "./registry.ts";
export { checkCacheHint, contentsFromValue, describeResource, notFound } from "./resource.ts";
export type { AnyResource, CacheHint } from "./resource.ts";
export type { WatchedResource } from "./resource-watch.ts";
export { callerKey, heardBy } from "./caller-key.ts";
export { failureResult } from "./result.ts";
export type { ContentBlock, ToolResult } from "./result.ts";
export type { CompiledSchema, JsonSchema, ValidationIssue } from "./schema.ts";
import * as scoping from "./scoping.ts";
export { scoping };
export { describeTool } from "./tool.ts";
import * as traceContext from "./trace-context.ts";
export { traceContext };
export type { AnyTool, ToolUiOptions, ToolView } from "./tool.ts";
export type { Middleware } from "./middleware.ts";
