// HOT PATH: look up → validate → run the handler → shape the result → mask errors.
// No allocation beyond the result, no per-call closures, no await that is not needed.
/**
 * The dispatcher: the one place where a decoded call becomes an outcome, for every wire.
 *
 * @module
 */
import { ErrorCode, ProtocolError, ToolError } from "./error.ts";
import { runMiddleware, type ToolCall } from "./middleware.ts";
import type { FinalOutcome, Outcome } from "./outcome.ts";
import type { Registry } from "./registry.ts";
import { failureResult, resultFromValue } from "./result.ts";
import { suggestName } from "./suggest.ts";
import type { ValidationResult } from "../tool/schema.ts";
import type { StreamHandler, ToolHandler } from "../tool/tool-def.ts";

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
  if (tool.mode === "stream") {
    const iterable = (tool.run as StreamHandler<unknown, unknown>)(checked.value, call.ctx);
    return { kind: "stream", partials: iterable[Symbol.asyncIterator]() as AsyncIterator<unknown> };
  }
  let value: unknown;
  try {
    value = (tool.run as ToolHandler<unknown, unknown>)(checked.value, call.ctx);
    if (value instanceof Promise) value = await value;
  } catch (error) {
    return failureFromError(registry, call, error);
  }
  const result = resultFromValue(value);
  return result.isError === true ? { kind: "failure", result } : { kind: "answer", result };
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
