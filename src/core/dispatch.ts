// HOT PATH: look up → validate → run the handler → shape the result → mask errors.
// No allocation beyond the result, no per-call closures, no await that is not needed.
/**
 * The dispatcher: the one place where a decoded call becomes an outcome, for every wire.
 *
 * @module
 */
import { applyServerConfig } from "./config.ts";
import { ErrorCode, ProtocolError, ToolError } from "./error.ts";
import { runMiddleware, type ToolCall } from "./middleware.ts";
import type { FinalOutcome, Outcome } from "./outcome.ts";
import type { Registry } from "./registry.ts";
import { failureResult, resultFromValue } from "./result.ts";
import { suggestName } from "./suggest.ts";
import type { ValidationResult } from "../tool/schema.ts";
import type { AnyTool, StreamHandler, ToolHandler } from "../tool/tool-def.ts";
import type { RoundScope } from "./input-round.ts";
import { promiseOutcome } from "./promise-outcome.ts";
import { ToolPromise } from "./tool-promise.ts";

/**
 * Dispatches a decoded call: runs the middleware, looks the tool up, validates the arguments and runs
 * the handler.
 *
 * @param registry The tools.
 * @param call The call.
 * @returns The outcome.
 * @throws {ProtocolError} For an unknown tool (`unknown_tool`), invalid arguments (`invalid_arguments`)
 *   or a protocol error raised by middleware or the handler.
 */
export function dispatch(registry: Registry, call: ToolCall): Promise<Outcome> {
  const chain = registry.middleware;
  return chain.length === 0 ? invoke(registry, call) : runMiddleware(chain, call, (c) => invoke(registry, c));
}

async function invoke(registry: Registry, call: ToolCall): Promise<Outcome> {
  const tool = registry.get(call.name);
  if (tool === undefined) throw unknownTool(registry, call.name);
  let checked: ValidationResult | Promise<ValidationResult> = tool.input.validate(call.arguments ?? {});
  if (checked instanceof Promise) checked = await checked;
  if (!checked.ok) {
    const detail = checked.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
    throw new ProtocolError(ErrorCode.InvalidArguments, `Invalid arguments for tool ${tool.name}: ${detail}`, {
      data: { tool: tool.name, issues: checked.issues },
    });
  }
  if (tool.config !== undefined || registry.config !== undefined) await applyServerConfig(registry, tool, call.ctx);
  const round = call.round;
  if (round !== undefined && round.carried) {
    const opening = round.open(registry.continuations, roundScope(call), registry.onError);
    if (opening !== undefined) await opening;
  }
  if (tool.mode === "stream") {
    const iterable = (tool.run as StreamHandler<unknown, unknown>)(checked.value, call.ctx);
    return { kind: "stream", partials: iterable[Symbol.asyncIterator]() as AsyncIterator<unknown> };
  }
  let value: unknown;
  try {
    value = (tool.run as ToolHandler<unknown, unknown>)(checked.value, call.ctx);
    if (value instanceof Promise) value = await value;
  } catch (error) {
    return round?.pending ? settle(registry, call, tool, value) : failureFromError(registry, call, error);
  }
  if (round?.pending || value instanceof ToolPromise) return settle(registry, call, tool, value);
  const result = resultFromValue(value);
  return result.isError === true ? { kind: "failure", result } : { kind: "answer", result };
}

/**
 * Ends a call that is not complete: with the input it still needs (even if the handler caught the
 * signal), or with a promise token. A state too large for a token, or a promise the tool cannot
 * redeem, is the tool's failure.
 */
async function settle(registry: Registry, call: ToolCall, tool: AnyTool, value: unknown): Promise<Outcome> {
  try {
    const round = call.round;
    return round?.pending
      ? await round.outcome(registry.continuations, roundScope(call))
      : await promiseOutcome(registry, call, tool, value as ToolPromise);
  } catch (error) {
    return failureFromError(registry, call, error);
  }
}

function roundScope(call: ToolCall): RoundScope {
  return { scope: call.name, args: call.arguments ?? {}, caller: call.ctx.auth?.subject };
}

/**
 * Turns an error thrown by a handler into its outcome: a `ToolError` or any other error is a failure
 * whose text is the message (never the stack); a `ProtocolError` goes on to the wire.
 *
 * @param registry The registry, for its error reporter.
 * @param call The call.
 * @param error What was thrown.
 * @returns The failure outcome.
 * @throws {ProtocolError} When the handler threw one.
 */
export function failureFromError(registry: Registry, call: ToolCall, error: unknown): FinalOutcome {
  if (error instanceof ProtocolError) throw error;
  if (error instanceof ToolError) {
    const result = failureResult(error.message);
    if (typeof error.data === "object" && error.data !== null && !Array.isArray(error.data)) {
      result.structuredContent = error.data as Record<string, unknown>;
    }
    return { kind: "failure", result };
  }
  registry.onError?.(error, call);
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "internal error";
  return { kind: "failure", result: failureResult(message || "internal error") };
}

/**
 * Builds the error for an unknown tool, with the names that exist and a suggestion.
 *
 * @param registry The tools.
 * @param name The name that was asked for.
 * @returns The error (`unknown_tool`).
 */
export function unknownTool(registry: Registry, name: string): ProtocolError {
  const available = [...registry.names];
  const suggestion = suggestName(name, available);
  const data: Record<string, unknown> = { requested_tool: name, available_tools: available };
  if (suggestion !== undefined) data.suggestion = `Did you mean '${suggestion}'?`;
  return new ProtocolError(ErrorCode.UnknownTool, `Tool not found: ${name}`, { data });
}
