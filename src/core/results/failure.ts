/**
 * What an error thrown by a handler (or by deferred work, or a continuation) becomes: the one mapping,
 * used by every path that runs tool code.
 *
 * @module
 */
import { ProtocolError, raisedHere, replacementError, ToolError } from "../../errors/error.ts";
import { reportDetail } from "./error-detail.ts";
import { Masked } from "./masking.ts";
import { failureResult, type ToolResult } from "./result.ts";
import { isObject } from "../../internal/is-object.ts";

/**
 * Turns what a handler threw into its business failure (`isError: true`): a `ToolError` keeps its
 * message and its data (as `structuredContent`); any other error keeps its message, never its stack,
 * and is reported. A `ProtocolError` is not a failure of the tool: it is thrown on, for the wire (the
 * detail it keeps for logs, if any, reported).
 *
 * @param error What was thrown.
 * @param report Receives errors that are not the tool's own failures, for logs; may return the error
 *   to answer instead (`onError`'s `{ code, message, data }`), or a {@link Masked} reference to answer in
 *   place of the error's message (`maskErrors`).
 * @returns The failure result.
 * @throws {ProtocolError} When the handler threw one, or the reporter replaced the error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ToolError } from "../../errors/error.ts";
 * import { failureFromError } from "./failure.ts";
 * const result = failureFromError(new ToolError("quota exceeded", { data: { retryInS: 60 } }), () => {});
 * assert.deepEqual(result, { content: [{ type: "text", text: "quota exceeded" }], isError: true, structuredContent: { retryInS: 60 } });
 * ```
 */
export function failureFromError(error: unknown, report: (error: unknown) => unknown): ToolResult {
  // An error a client made or read (a handler let it through) is any error here: its message is the failure.
  if (error instanceof ProtocolError && raisedHere(error)) {
    reportDetail(error, report);
    throw error;
  }
  let failure: ToolError | Masked = error as ToolError;
  if (!(error instanceof ToolError && raisedHere(error))) {
    const answer = report(error);
    const replaced = replacementError(error, answer); // onError recognised it: answer its error
    if (replaced !== undefined) throw replaced;
    if (!(answer instanceof Masked)) {
      const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
      return failureResult(message || "internal error");
    }
    failure = answer; // masked: "Internal error" and the reference, as the tool's failure
  }
  const result = failureResult(failure.message);
  if (isObject(failure.data)) result.structuredContent = failure.data;
  return result;
}
