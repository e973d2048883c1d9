/**
 * Running what a promise continues outside a tool call: its continuation (`.redeem()`, for MCP's
 * `tasks/get`), its cancellation (`.cancel()`, for `tasks/cancel`), with the owner's context and the
 * call pipeline's error mapping.
 *
 * @module
 */
import { type CallContext } from "../core/call/call-context.ts";
import { createContext } from "../core/call/tool-call-context.ts";
import type { CallSink, InputRequest } from "../core/call/call-sink.ts";
import { failedCall } from "../core/call/failed-call.ts";
import { InputRound } from "../core/call/input-round.ts";
import type { ToolCall } from "../core/call/middleware.ts";
import { type FinalOutcome, finalOutcome } from "../core/call/outcome.ts";
import { cancelContinuation, continuePromise } from "./redeem.ts";
import type { Registry } from "../core/definitions/registry.ts";
import type { ToolResult } from "../core/results/result.ts";
import type { AnyTool } from "../core/definitions/tool.ts";
import { PendingPromise } from "../core/call/tool-promise.ts";
import { TRACE_PARENT } from "../core/call/trace-context.ts";

/** A continuation run outside a tool call (MCP's `tasks/get`), and what it needs. */
export interface ContinuationRequest {
  /** The tool that made the promise. */
  readonly owner: AnyTool;
  /** The promise's state. */
  readonly state: unknown;
  /** The context of the request that asked (its signal, metadata and caller). */
  readonly caller: CallContext;
  /** Answers the client gave to earlier questions, by key. */
  readonly answers?: Readonly<Record<string, unknown>>;
}

/** What a continuation gave: a final result, a question for the client, or another promise. */
export type ContinuationOutcome =
  | FinalOutcome
  | { readonly kind: "input_required"; readonly requests: Record<string, InputRequest> }
  | { readonly kind: "continued"; readonly promise: PendingPromise };

/**
 * Runs a tool's cancellation handler (`.cancel()`), if it has one, on a promise's state, outside a
 * tool call (MCP's `tasks/cancel`), with the owner's context and configuration.
 *
 * @param registry The registry.
 * @param request The owner, the state, and the asking request's context.
 * @returns When the handler is done.
 */
export async function runCancellation(registry: Registry, request: ContinuationRequest): Promise<void> {
  await cancelContinuation(registry, request.owner, request.state, ownerContext(registry, request));
}

/** The context of a continuation or cancellation: the owner's name, the asking request's caller and trace. */
function ownerContext(registry: Registry, request: ContinuationRequest, sink?: CallSink): CallContext {
  const { owner, caller } = request;
  const ctx = createContext(
    {
      name: owner.name,
      signal: caller.signal,
      meta: caller.meta,
      host: { auth: caller.auth, env: caller.env, waitUntil: undefined },
    },
    sink,
    registry.runtime.logger,
  );
  const traceparent = caller.get(TRACE_PARENT);
  return traceparent === undefined ? ctx : ctx.set(TRACE_PARENT, traceparent);
}

/**
 * Runs a tool's continuation (`.redeem()`) on a promise's state, outside a tool call, with the same
 * context, configuration, output check and error mapping as {@link runCall}. A question the
 * continuation asks that `answers` does not answer ends it with `input_required`.
 *
 * @param registry The registry.
 * @param request The owner, the state, the asking request's context and the answers so far.
 * @returns The outcome.
 * @throws {ProtocolError} One the continuation threw (the promise failed), or `missing_capability`
 *   when it asks for input the client did not declare.
 */
export async function runContinuation(
  registry: Registry,
  request: ContinuationRequest,
): Promise<ContinuationOutcome> {
  const owner = request.owner;
  const round = new InputRound(request.answers);
  const ctx = ownerContext(registry, request, round);
  const call: ToolCall = { name: owner.name, arguments: request.state, ctx };
  let value: unknown;
  try {
    value = await continuePromise(registry, owner, request.state, ctx);
  } catch (error) {
    if (round.pending) return { kind: "input_required", requests: round.questions };
    return failedCall(call, error, registry.runtime);
  }
  if (round.pending) return { kind: "input_required", requests: round.questions };
  if (value instanceof PendingPromise) return { kind: "continued", promise: value };
  const result = value as ToolResult; // continuePromise checked it against the owner's output schema
  return finalOutcome(result);
}
