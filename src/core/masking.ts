/**
 * `createServer({ maskErrors: true })`: what a caller is told of an unexpected error of a tool call (a
 * handler's bug, a result its output schema refuses) in place of the error's own text, which may hold a
 * path, a query or a secret. The caller gets "Internal error" and a short random reference; the server's
 * log line of that error carries the same reference, so an operator finds it from what a user reports.
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";
import { failureResult, type ToolResult } from "./result.ts";

/** What the server's reporter answers for an error it masked: the reference the caller is given. */
export class Masked {
  /** The reference the log line and the caller share. */
  readonly reference: string;

  /**
   * Creates the answer.
   *
   * @param reference The reference the log line and the caller share.
   */
  constructor(reference: string) {
    this.reference = reference;
  }
}

/**
 * A new reference: 8 hexadecimal digits, random (32 bits), enough to find one line among a day's errors and too
 * short to be mistaken for a secret.
 *
 * @returns The reference.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { newReference } from "./masking.ts";
 * assert.match(newReference(), /^[0-9a-f]{8}$/);
 * ```
 */
export function newReference(): string {
  const [n] = crypto.getRandomValues(new Uint32Array(1));
  return n.toString(16).padStart(8, "0");
}

/**
 * The failure a masked handler error becomes: "Internal error" with the reference, in the text the model reads
 * and in `structuredContent` (a client's `ToolError.data`).
 *
 * @param masked The reporter's answer.
 * @returns The `isError` result.
 */
export function maskedFailure(masked: Masked): ToolResult {
  const result = failureResult(maskedMessage(masked.reference));
  result.structuredContent = { reference: masked.reference };
  return result;
}

/**
 * The internal error a result that breaks its output schema becomes: the reference in its message and `data` when
 * the reporter masked it, else the bare "Internal error" (the mismatch names the server's schema, not the
 * caller's mistake).
 *
 * @param answer What the reporter answered.
 * @returns The error to throw.
 */
export function internalError(answer: unknown): ProtocolError {
  return answer instanceof Masked
    ? new ProtocolError("internal", maskedMessage(answer.reference), { data: { reference: answer.reference } })
    : new ProtocolError("internal", "Internal error");
}

function maskedMessage(reference: string): string {
  return `Internal error (reference ${reference})`;
}
