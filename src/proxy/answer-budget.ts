/**
 * What a proxy holds of its remote's answers, counted against the server's budgets: the bytes of an answer
 * being read (a JSON body, the SSE event in progress) take from `limits.bodyBytes` (and the caller's share) as
 * a request body does, until read. Past the budget the call is refused as a request would be (`rate_limited`,
 * 503 or 429 with `Retry-After`): many large answers are refused, not buffered. An answer past `maxResponseBytes`
 * is a tool error naming the bound; a prompt's or resource's an `internal` one (the remote's fault, as a 502).
 *
 * @module
 */
import { type CallContext } from "../core/call/call-context.ts";
import { budgetCallerOf, budgetsOfCall } from "../core/call/tool-call-context.ts";
import type { BudgetRefusal } from "../core/instance/budgets.ts";
import { ProtocolError, ToolError } from "../errors/error.ts";
import { countResponses, isResponseTooLarge } from "../client/response-bound.ts";

/** One call's count of its remote's answer bytes. */
export interface AnswerBudget {
  /** The signal to send the call with: the caller's, with the count attached. */
  readonly signal: AbortSignal;
  /**
   * The error to answer in place of the client's, when the count or the bound stopped the read.
   *
   * @param error What the client threw.
   * @param tool Whether a tool's call (a tool error) or a prompt's or resource's (a protocol error).
   * @returns The refusal, the error naming the bound, or `undefined` for any other error.
   */
  answerFor(error: unknown, tool?: boolean): BudgetRefusal | ToolError | ProtocolError | undefined;
}

/**
 * Counts a call's remote answers against the budgets of the server running it.
 *
 * @param ctx The call's context.
 * @returns The signal to call the remote with, and the errors the count answers.
 */
export function answerBudget(ctx: CallContext): AnswerBudget {
  // A signal of this call's own: the count is found by it, and the caller's may be shared.
  const signal = AbortSignal.any([ctx.signal]);
  const budgets = budgetsOfCall(ctx);
  let refusal: BudgetRefusal | undefined;
  if (budgets !== undefined) {
    const caller = budgetCallerOf(ctx);
    countResponses(signal, {
      take(bytes) {
        const refused = budgets.take("bodyBytes", bytes, caller);
        if (refused !== undefined) throw refusal = refused;
      },
      give: (bytes) => budgets.give("bodyBytes", bytes, caller),
    });
  }
  return {
    signal,
    answerFor(error, tool = true) {
      if (refusal !== undefined) return refusal;
      if (!isResponseTooLarge(error)) return undefined;
      const message = `The remote's answer was refused: ${error.message}`;
      const data = { maxResponseBytes: error.data.maxResponseBytes };
      return tool ? new ToolError(message, { data }) : new ProtocolError("internal", message, { data });
    },
  };
}
