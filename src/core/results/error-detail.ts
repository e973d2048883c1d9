/**
 * An error answered to a caller with its detail kept apart: what the caller may know travels in the error
 * (its code, safe message and data), the rest (a remote's message with its URL, the body it answered, a
 * child's stderr) goes to the server's `onError`, once, by whichever path answers the error first.
 *
 * @module
 */
import { McpliteError } from "../../errors/error.ts";

/**
 * Where an error carries its detail until reported: a symbol-keyed property (JSON leaves it behind), a value on
 * the error rather than a table beside it.
 */
const DETAIL = /* @__PURE__ */ Symbol();

/**
 * Keeps an error's detail for the server's error reporter.
 *
 * @param error The error the caller is answered.
 * @param detail What only `onError` sees (the original error).
 * @returns `error`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ErrorCode, ProtocolError } from "../../errors/error.ts";
 * import { reportDetail, withDetail } from "./error-detail.ts";
 * const error = withDetail(new ProtocolError(ErrorCode.Unavailable, "The remote is unavailable"), new Error("GET https://x/?key=s"));
 * const seen: unknown[] = [];
 * reportDetail(error, (detail) => seen.push(detail));
 * reportDetail(error, (detail) => seen.push(detail)); // reported once
 * assert.equal(seen.length, 1);
 * ```
 */
export function withDetail<E extends McpliteError>(error: E, detail: unknown): E {
  (error as { [DETAIL]?: unknown })[DETAIL] = detail;
  return error;
}

/**
 * Hands an error's kept detail to the reporter, once; nothing for an error without one.
 *
 * @param error What is being answered.
 * @param report The server's error reporter.
 */
export function reportDetail(error: unknown, report: ((detail: unknown) => unknown) | undefined): void {
  if (!(error instanceof McpliteError)) return;
  const detail = (error as { [DETAIL]?: unknown })[DETAIL];
  if (detail === undefined) return;
  (error as { [DETAIL]?: unknown })[DETAIL] = undefined;
  report?.(detail);
}
