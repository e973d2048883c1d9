/**
 * What the core answers for a call, before any wire sees it. Bindings translate each kind:
 * `answer` and `failure` are complete results; `stream` yields partials before its final result.
 *
 * @module
 */
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

/** A completed outcome. */
export type FinalOutcome = AnswerOutcome | FailureOutcome;

/** Any outcome. */
export type Outcome = FinalOutcome | StreamOutcome;
