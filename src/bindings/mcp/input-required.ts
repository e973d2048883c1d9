/**
 * Input-required results (SEP-2322, "multi round-trip requests") on the 2026-07-28 revision: a
 * handler's `ctx.elicit()`, `ctx.sample()` or `ctx.roots()` that the request did not answer ends the
 * request with `resultType: "input_required"`, every outstanding question in `inputRequests` and a
 * signed `requestState`; the client sends the same request again with `inputResponses` and the state.
 * The same `InputRound` drives MCP-lite's `elicitation` responses. Only `tools/call`, `prompts/get`
 * and `resources/read` answer this way, and such a result is never cached.
 *
 * @module
 */
import type { CallSink } from "../../core/call-context.ts";
import { InputRound, type RoundScope } from "../../core/input-round.ts";
import type { InputRequiredOutcome } from "../../core/outcome.ts";
import type { McpContext, McpRequest } from "./request.ts";

/** The params that answer a round: the answers by key, and the echoed state. */
export const INPUT_RESPONSES_PARAM = "inputResponses";
/** The param that echoes a round's `requestState`. */
export const REQUEST_STATE_PARAM = "requestState";

/**
 * Opens the input round of a 2026-07-28 request from its `inputResponses` and `requestState`; the
 * 2025 revisions ask over the stream instead and get none.
 *
 * @param request The request.
 * @param inner Where progress and logs go.
 * @returns The round, or `undefined` on the 2025 revisions.
 */
export function roundFor(request: McpRequest, inner: CallSink | undefined): InputRound | undefined {
  if (request.envelope.era !== "modern") return undefined;
  const params = request.rpc.params;
  return new InputRound(params[INPUT_RESPONSES_PARAM], params[REQUEST_STATE_PARAM], inner);
}

/**
 * Translates an input-required outcome into the revision's `InputRequiredResult`.
 *
 * @param outcome The outcome.
 * @returns The result (`resultType`, `inputRequests`, `requestState`).
 */
export function inputRequiredResult(outcome: InputRequiredOutcome): Record<string, unknown> {
  return { resultType: "input_required", inputRequests: outcome.requests, requestState: outcome.requestState };
}

/** What a handler run inside a round gave: its value, or the result asking for input. */
export type Answered<T> = { readonly asked: false; readonly value: T } | {
  readonly asked: true;
  readonly result: Record<string, unknown>;
};

/**
 * Runs a prompt or resource handler inside its request's round: the echoed state is checked first
 * (a tampered, expired or foreign one is -32602, never a re-prompt); a question the request did not
 * answer ends the request with an `InputRequiredResult`, even if the handler caught the signal.
 * Without a round (2025) the handler just runs.
 *
 * @param ctx The binding.
 * @param round The request's round, if any.
 * @param who What the round belongs to: a scope of its own per method, the arguments, the caller.
 * @param run Runs the handler.
 * @returns The handler's value, or the result that asks for input.
 * @throws {ProtocolError} `invalid_params` for a bad state or answers that are not an object; any
 *   error of the handler otherwise.
 */
export async function runInRound<T>(
  ctx: McpContext,
  round: InputRound | undefined,
  who: RoundScope,
  run: () => Promise<T>,
): Promise<Answered<T>> {
  if (round === undefined) return { asked: false, value: await run() };
  const continuations = ctx.core.registry.continuations;
  const opening = round.open(continuations, who, ctx.report);
  if (opening !== undefined) await opening;
  let value: T;
  try {
    value = await run();
  } catch (error) {
    if (!round.pending) throw error;
    return { asked: true, result: inputRequiredResult(await round.outcome(continuations, who)) };
  }
  if (round.pending) return { asked: true, result: inputRequiredResult(await round.outcome(continuations, who)) };
  return { asked: false, value };
}
