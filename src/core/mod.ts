/**
 * The core as bindings and carriers see it: the one module `src/bindings` and `src/stdio` import from
 * `src/core`. It names the call pipeline (`runCall`, `runRequest`, `runHandler`), the registry contract
 * and its typed caches, the errors and their codes, the outcomes, scopes, and the descriptors each
 * definition gives its lists; nothing else of the core's internals. Growing it is a decision
 * (`tests/boundaries.test.ts` holds bindings to it).
 *
 * @module
 */
export { CacheSlot } from "./cache-slot.ts";
export { callerOf, createContext, withResultMeta } from "./call-context.ts";
export { budgetsOf } from "./runtime.ts";
export { ANONYMOUS, BUDGET_NAMES, type BudgetName, type BudgetRefusal, Budgets } from "./budgets.ts";
export { warnServer } from "./warn-server.ts";
export type { AuthInfo, CallContext, CallMeta, ClientInfo, SignalSource } from "./call-context.ts";
export { asksOnlyForResources, LOG_LEVELS } from "./call-sink.ts";
export type { CallSink, InputRequest, LogLevel } from "./call-sink.ts";
export { completionResult } from "./completer.ts";
export type { Completer, CompletionResult } from "./completer.ts";
export { configDefaults } from "./config.ts";
export { detailsOf, ErrorCode, McpliteError, ProtocolError, replacementError, ToolError } from "./error.ts";
export type { Feature } from "./feature.ts";
export { withCaller } from "./host.ts";
export type { CallOutcome, InputRequiredOutcome, PromiseOutcome } from "./outcome.ts";
export { callNow, runCall } from "./pipeline.ts";
export { runHandler } from "./run-handler.ts";
export { sameGroupAs } from "./grouped-middleware.ts";
export { runRequest } from "./run-request.ts";
export { streamCall } from "./stream-call.ts";
export { promiseTasks, type TaskView } from "./long-running/promise-task.ts";
export { followPromise } from "./long-running/follow-promise.ts";
export { holdFor, overrideHold } from "./long-running/hold-setting.ts";
export { InFlight, RunningRequest, type Scope } from "./long-running/in-flight.ts";
export type { CallRequest } from "./call-request.ts";
export type { HandlerOutcome, HandlerRequest } from "./run-handler.ts";
export type { MethodRequest } from "./run-request.ts";
export { REDEEM_TOOL } from "./redeem.ts";
export { describePrompt, promptResultFromValue } from "./prompt.ts";
export type { AnyPrompt, PromptDescriptor, PromptResult } from "./prompt.ts";
export type { CallTarget, Registry, RegistryChange } from "./registry.ts";
export { registryOf } from "./registry.ts";
export { checkCacheHint, contentsFromValue, describeResource, notFound } from "./resource.ts";
export type { AnyResource, CacheHint } from "./resource.ts";
export { fail, failureResult } from "./result.ts";
export type { ContentBlock, ToolResult } from "./result.ts";
export type { CompiledSchema, JsonSchema, StandardSchemaV1, ValidationIssue } from "./schema.ts";
export { checkScopes, holdsScopes, requireScopes, scopeKey, toolScopes, visibleTo, visibleTools } from "./scopes.ts";
export { suggestName } from "./suggest.ts";
export type { Skill } from "./skill.ts";
export { describeTool } from "./tool.ts";
export { ISSUED_BY, parseTraceparent, TRACE_PARENT } from "./trace-context.ts";
export type { AnyTool, ToolAnnotations, ToolDescriptor, ToolUiOptions, ToolView } from "./tool.ts";
export type { Call, Middleware } from "./middleware.ts";
