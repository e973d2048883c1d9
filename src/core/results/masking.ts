/**
 * `createServer({ maskErrors: true })`: what a caller is told of an unexpected error of a tool call (a
 * handler's bug, a result its output schema refuses) in place of the error's own text, which may hold a
 * path, a query or a secret. The caller gets "Internal error" and a short random reference; the server's
 * log line of that error carries the same reference, so an operator finds it from what a user reports.
 *
 * @module
 */

/**
 * What the server's reporter answers for an error it masked: the reference the log line and the caller share,
 * and what the caller is told ("Internal error" with the reference, the reference as `data`: a tool failure's
 * `structuredContent`, a client's `ToolError.data`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Masked } from "./masking.ts";
 * const masked = new Masked();
 * assert.match(masked.reference, /^[0-9a-f]{8}$/);
 * assert.equal(masked.message, `Internal error (reference ${masked.reference})`);
 * ```
 */
export class Masked {
  /**
   * The reference the log line and the caller share: 8 hexadecimal digits, random (32 bits), enough to find one
   * line among a day's errors and too short to be mistaken for a secret.
   */
  readonly reference: string = crypto.getRandomValues(new Uint32Array(1))[0].toString(16).padStart(8, "0");

  /** What the caller is told. */
  get message(): string {
    return `Internal error (reference ${this.reference})`;
  }

  /** The reference, for the caller's program. */
  get data(): { readonly reference: string } {
    return { reference: this.reference };
  }
}
