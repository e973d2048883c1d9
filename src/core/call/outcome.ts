/**
 * What the call pipeline answers for a call, before any wire sees it. Bindings translate each kind:
 * `answer` and `failure` are complete results (a streaming tool's partials went to the binding while
 * it ran); `promise` is a token to redeem later; `input_required` asks the client for input, with
 * signed state.
 *
 * @module
 */
import type { InputRequest } from "./call-sink.ts";
import type { ToolResult } from "../results/result.ts";

/** The call completed with a result. */
export interface AnswerOutcome {
  /** The kind. */
  readonly kind: "answer";
  /** The result. */
  readonly result: ToolResult;
}

/** The call completed with a business failure (`isError: true`). */
export interface FailureOutcome {
  /** The kind. */
  readonly kind: "failure";
  /** The result, with `isError: true`. */
  readonly result: ToolResult;
}

/** The call is not done: the client redeems `token` later (MCP-lite spec v0.042 §3.5, promises). */
export interface PromiseOutcome {
  /** The kind. */
  readonly kind: "promise";
  /** The signed promise token, for the `redeem` tool. */
  readonly token: string;
  /** When the client should redeem, in milliseconds. */
  readonly retryAfterMs: number;
  /** When the work should be done, ISO 8601, if the tool said. */
  readonly estimatedCompletion: string | undefined;
  /** When the token expires, ISO 8601. */
  readonly expiresAt: string;
  /** The authenticated caller (`ctx.auth.subject`) the token is bound to, if any. */
  readonly caller: string | undefined;
  /**
   * The result-store id of deferred work (`ctx.defer()`) this call started, for a wire that follows
   * it (server-side only, never sent); absent for a continuation (`ctx.promise()`).
   */
  readonly entry?: string;
}

/** The call needs input from the client: answer `requests` and call again with `requestState`. */
export interface InputRequiredOutcome {
  /** The kind. */
  readonly kind: "input_required";
  /** Every outstanding request, by key (MCP `inputRequests`). */
  readonly requests: Record<string, InputRequest>;
  /** The signed state to echo back with the answers. */
  readonly requestState: string;
}

/** A completed outcome. */
export type FinalOutcome = AnswerOutcome | FailureOutcome;

/** What a call ends with once any stream is drained: complete, pending, or waiting for input. */
export type CallOutcome = AnswerOutcome | FailureOutcome | PromiseOutcome | InputRequiredOutcome;

/**
 * A finished result as its outcome: a failure when it is an `isError` result, else an answer.
 *
 * @param result The result.
 * @returns The outcome.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { finalOutcome } from "./outcome.ts";
 * assert.equal(finalOutcome({ content: [], isError: true }).kind, "failure");
 * assert.equal(finalOutcome({ content: [] }).kind, "answer");
 * ```
 */
export function finalOutcome(result: ToolResult): FinalOutcome {
  return result.isError === true ? { kind: "failure", result } : { kind: "answer", result };
}
