/**
 * `Retry-After` (RFC 9110 §10.2.3) for a refusal that says when to try again: its `data.retryAfterMs`
 * (a rate limit, a dependency that is down), in whole seconds.
 *
 * @module
 */

/**
 * The `Retry-After` value of an error whose data carries `retryAfterMs`.
 *
 * @param error What a request was refused with.
 * @returns The delay in whole seconds (rounded up), or `undefined` when the error names none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ErrorCode, ProtocolError } from "../errors/error.ts";
 * import { retryAfterOf } from "./retry-after.ts";
 * const down = new ProtocolError(ErrorCode.Unavailable, "down", { data: { retryAfterMs: 1500 } });
 * assert.equal(retryAfterOf(down), "2");
 * assert.equal(retryAfterOf(new Error("boom")), undefined);
 * ```
 */
export function retryAfterOf(error: unknown): string | undefined {
  const retryAfterMs = ((error as { data?: unknown } | null)?.data as { retryAfterMs?: unknown } | undefined)
    ?.retryAfterMs;
  return typeof retryAfterMs === "number" && retryAfterMs >= 0 ? String(Math.ceil(retryAfterMs / 1000)) : undefined;
}
