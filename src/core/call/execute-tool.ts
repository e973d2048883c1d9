/**
 * A found tool, run: its scopes, its arguments' and configuration's validation, the input round, the
 * handler (a stream drained), then the outcome (checked against the output schema), a promise token or
 * the input the call still needs. Synchronous as long as nothing has to be waited for (`callNow`'s
 * fast path, `bench/guard.ts`).
 *
 * @module
 */
import { callerOf, withResultMeta } from "./call-context.ts";
import { setConfig } from "./tool-call-context.ts";
import { configFor, hasConfig } from "../definitions/config.ts";
import { drain } from "./drain.ts";
import { ProtocolError } from "../../errors/error.ts";
import { failedCall } from "./failed-call.ts";
import { nonFinitePath } from "../../internal/non-finite.ts";
import { requireToolScopes } from "../definitions/scopes.ts";
import { type InputRound, requiredInput, type RoundScope } from "./input-round.ts";
import type { ToolCall } from "./middleware.ts";
import { type CallOutcome, finalOutcome } from "./outcome.ts";
import { resultOf } from "./output.ts";
import type { CallRequest } from "./call-request.ts";
import type { Registry } from "../definitions/registry.ts";
import { resultFromValue, type ToolResult } from "../results/result.ts";
import type { ValidationIssue, ValidationResult } from "../schema.ts";
import { formatIssues } from "../definitions/standard-result.ts";
import { suggestName } from "../definitions/suggest.ts";
import type { AnyTool, StreamHandler, ToolHandler } from "../definitions/tool.ts";
import { PendingPromise } from "./tool-promise.ts";
import { echoed } from "../../internal/echo.ts";

/**
 * Runs a found tool. Synchronous as long as nothing needs waiting for (the common case: a synchronous
 * validator and handler, no configuration, no carried input round, not a stream); the first thing
 * that does sends the rest through {@link executeWaiting}, the same stages in the same order.
 *
 * @param registry The registry.
 * @param tool The tool.
 * @param call The call, with its context.
 * @param request The decoded call.
 * @param round The input round the call carried, if any.
 * @returns The outcome, or a promise of it.
 * @throws {ProtocolError} `invalid_arguments`, or a missing scope.
 */
export function executeFound(
  registry: Registry,
  tool: AnyTool,
  call: ToolCall,
  request: CallRequest,
  round: InputRound | undefined,
): CallOutcome | Promise<CallOutcome> {
  requireToolScopes(tool, call.ctx.auth);
  // `1e400` decodes as Infinity and passes v.number(): refuse what JSON cannot carry back, by its path.
  const nonFinite = nonFinitePath(call.arguments);
  if (nonFinite !== undefined) {
    throw invalidArguments(tool.name, [{
      path: nonFinite,
      message: "must be a finite number (JSON has no Infinity or NaN)",
    }]);
  }
  const checked = tool.input.validate(call.arguments ?? {});
  if (
    checked instanceof Promise || hasConfig(registry, tool) ||
    (round !== undefined && round.carried) || tool.mode === "stream"
  ) {
    return executeWaiting(registry, tool, call, request, round, checked);
  }
  if (!checked.ok) throw invalidArguments(tool.name, checked.issues);
  let value: unknown;
  try {
    value = (tool.run as ToolHandler<unknown, unknown>)(checked.value, call.ctx);
  } catch (error) {
    return handlerFailed(registry, call, tool, round, error);
  }
  return value instanceof Promise
    ? value.then(
      (settled) => outcomeOf(registry, call, tool, request, round, settled),
      (error) => handlerFailed(registry, call, tool, round, error),
    )
    : outcomeOf(registry, call, tool, request, round, value);
}

/** {@link executeFound} from its validation on, once something has to be waited for. */
async function executeWaiting(
  registry: Registry,
  tool: AnyTool,
  call: ToolCall,
  request: CallRequest,
  round: InputRound | undefined,
  validated: ValidationResult | Promise<ValidationResult>,
): Promise<CallOutcome> {
  const checked = validated instanceof Promise ? await validated : validated;
  if (!checked.ok) throw invalidArguments(tool.name, checked.issues);
  const ctx = call.ctx;
  if (hasConfig(registry, tool)) {
    const config = configFor(registry, tool, request.config);
    setConfig(ctx, config instanceof Promise ? await config : config);
  }
  if (round !== undefined && round.carried) {
    const opening = round.open(registry.runtime.tokens, roundScope(call), registry.runtime.reportRefusedToken);
    if (opening !== undefined) await opening;
  }
  let value: unknown;
  try {
    if (tool.mode === "stream") {
      value = await drain((tool.run as StreamHandler<unknown, unknown>)(checked.value, ctx), ctx, request.onPartial);
    } else {
      value = (tool.run as ToolHandler<unknown, unknown>)(checked.value, ctx);
      if (value instanceof Promise) value = await value;
    }
  } catch (error) {
    return await handlerFailed(registry, call, tool, round, error);
  }
  return await outcomeOf(registry, call, tool, request, round, value);
}

/**
 * A handler that threw: a handler that asked the client (and got the signal that ends the call)
 * answers with the question; a streaming tool cannot ask (its partials are out already): the signal
 * fails it, naming that.
 */
function handlerFailed(
  registry: Registry,
  call: ToolCall,
  tool: AnyTool,
  round: InputRound | undefined,
  error: unknown,
): CallOutcome | Promise<CallOutcome> {
  error = requiredInput(error, call.ctx.meta, tool.mode === "stream" ? undefined : round) ?? error;
  if (round?.pending && tool.mode !== "stream") return askFor(registry, call, round);
  return failedCall(call, error, registry.runtime);
}

/** What a handler's value becomes: the input it still needs (even if the handler caught the signal), a promise token, or its result. */
function outcomeOf(
  registry: Registry,
  call: ToolCall,
  tool: AnyTool,
  request: CallRequest,
  round: InputRound | undefined,
  value: unknown,
): CallOutcome | Promise<CallOutcome> {
  if (round?.pending && tool.mode !== "stream") return askFor(registry, call, round);
  if (value instanceof PendingPromise) return promisedWork(registry, call, tool, value, request.host?.waitUntil);
  const result: ToolResult | Promise<ToolResult> = tool.output === undefined
    ? resultFromValue(value)
    : resultOf(tool, value, (error) => registry.runtime.reportUnexpected(error, call));
  return result instanceof Promise
    ? result.then((r) => finalOutcome(withResultMeta(r, call.ctx)))
    : finalOutcome(withResultMeta(result, call.ctx));
}

async function promisedWork(
  registry: Registry,
  call: ToolCall,
  tool: AnyTool,
  value: PendingPromise,
  waitUntil: ((work: Promise<unknown>) => void) | undefined,
): Promise<CallOutcome> {
  try {
    const support = registry.longRunning;
    if (support === undefined) {
      throw new TypeError(`tool "${tool.name}" answered "not done yet": that needs createServer({ ..., longRunning })`);
    }
    return await support.promised(registry, call, tool, value, waitUntil);
  } catch (error) {
    return failedCall(call, error, registry.runtime); // the tool's mistake: no .redeem(), a state too large…
  }
}

async function askFor(registry: Registry, call: ToolCall, round: InputRound): Promise<CallOutcome> {
  try {
    return await round.outcome(registry.runtime.tokens, roundScope(call));
  } catch (error) {
    return failedCall(call, error, registry.runtime); // a state too large for a token
  }
}

function roundScope(call: ToolCall): RoundScope {
  return { scope: call.name, args: call.arguments ?? {}, caller: callerOf(call.ctx.auth) };
}

/**
 * Builds the error for an unknown tool, with the names that exist and a suggestion.
 *
 * @param registry The tools.
 * @param name The name that was asked for.
 * @returns The error (`unknown_tool`).
 */
export function unknownTool(registry: Registry, name: string): ProtocolError {
  const available = [...registry.tools].map((tool) => tool.name);
  const suggestion = suggestName(name, available);
  const data: Record<string, unknown> = { requested_tool: echoed(name), available_tools: available };
  if (suggestion !== undefined) data.suggestion = `Did you mean '${suggestion}'?`;
  return new ProtocolError("unknown_tool", `Tool not found: ${echoed(name)}`, { data });
}

function invalidArguments(tool: string, issues: ValidationIssue[]): ProtocolError {
  return new ProtocolError("invalid_arguments", `Invalid arguments for tool ${tool}: ${formatIssues(issues)}`, {
    data: { tool, issues },
  });
}
