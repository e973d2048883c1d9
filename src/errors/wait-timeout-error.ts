/**
 * The error of a `work.waitFor()` that no signal answered in time. Why: docs/concepts/long-running.md, "Waiting for
 * the outside world".
 *
 * @module
 */
import { NonRetryableError } from "./non-retryable-error.ts";

/**
 * Thrown by `work.waitFor(name, { timeoutMs })` once its time passed with no signal: the work may catch it (and go on
 * without the answer), or let it fail the job with its message. Its end is journaled like the wait's start: a later
 * start of the job (a worker killed) throws it again at the same place, and a signal sent after it is refused. So
 * it is a {@link NonRetryableError}: uncaught, it ends the job at once, whatever its `retry` (a retry would only meet
 * the same journaled timeout). As Temporal's `condition()` timeout, Inngest's `step.waitForEvent()` answering `null`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NonRetryableError, WaitTimeoutError } from "./mod.ts";
 *
 * const error = new WaitTimeoutError("approved", 60_000);
 * assert.equal(error.signal, "approved");
 * assert.equal(error.message, 'No signal "approved" came within 60000 ms');
 * assert.ok(error instanceof WaitTimeoutError);
 * assert.ok(error instanceof NonRetryableError); // final: not retried
 * ```
 */
export class WaitTimeoutError extends NonRetryableError {
  /** The signal waited for. */
  readonly signal: string;
  /** How long the work waited, in ms. */
  readonly timeoutMs: number;

  /**
   * Makes the error.
   *
   * @param signal The signal's name.
   * @param timeoutMs How long the wait lasted, in ms.
   */
  constructor(signal: string, timeoutMs: number) {
    super(`No signal "${signal}" came within ${timeoutMs} ms`);
    this.name = "WaitTimeoutError";
    this.signal = signal;
    this.timeoutMs = timeoutMs;
  }
}
