/**
 * The one error a token check raises. Its `reason` says what failed, for logs; its message is the same
 * for every reason, so the wire learns nothing about why.
 *
 * @module
 */

/** Why a token was refused. */
export type TokenFailure = "malformed" | "bad_mac" | "expired" | "wrong_kind" | "wrong_tool" | "wrong_caller";

/**
 * A token that failed verification. The message is opaque and identical for every reason; read
 * `reason` in logs. The server never sends it as is: each place that checks a token turns it into the
 * wire's "invalid params" error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TokenError } from "./token-error.ts";
 * const error = new TokenError("expired");
 * assert.equal(error.reason, "expired");
 * assert.equal(error.message, "Invalid or expired token");
 * ```
 */
export class TokenError extends Error {
  /** What failed: the encoding, the MAC, the expiry, or the kind, tool or caller it was issued for. */
  declare readonly reason: TokenFailure;

  /**
   * Creates a token error.
   *
   * @param reason What failed.
   * @param options The cause, for logs.
   */
  constructor(reason: TokenFailure, options?: { cause?: unknown }) {
    super("Invalid or expired token", options?.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.name = "TokenError";
  }
}

/**
 * Tells whether a value is a {@link TokenError}.
 *
 * @param error The value to test.
 * @returns `true` for a refused token.
 */
export function isTokenError(error: unknown): error is TokenError {
  return error instanceof TokenError;
}
