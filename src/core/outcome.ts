/**
 * What the core answers for a call, before any wire sees it. Bindings translate each kind:
 * `answer` and `failure` are complete results; `stream` yields partials before its final result;
 * `promise` is a token to redeem later; `input_required` asks the client for input, with signed state.
 *
 * @module
 */
import type { InputRequest } from "./call-context.ts";
import type { ToolResult } from "./result.ts";

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

/** The call streams partials; {@link import("./stream.ts").drainStream} turns it into its final outcome. */
export interface StreamOutcome {
  /** The kind. */
  readonly kind: "stream";
  /** The partials, then (as the iterator's return value) the final value. */
  readonly partials: AsyncIterator<unknown, unknown, undefined>;
}

/** The call is not done: the client redeems `token` later (MCP-lite `promise`; seed §3.5). */
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
export type CallOutcome = FinalOutcome | PromiseOutcome | InputRequiredOutcome;

/** Any outcome. */
export type Outcome = CallOutcome | StreamOutcome;
