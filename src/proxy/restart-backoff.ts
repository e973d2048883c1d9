/**
 * When a stdio remote that exited may be started again: at once after its first failure, then after an
 * exponentially growing wait with jitter, up to a cap, so a child that dies at start costs a few spawns a
 * minute rather than one per call (the "exponential backoff and jitter" of the AWS Architecture Blog, as
 * gRPC's connection backoff does it). A child that ran healthy for a while starts the count over.
 *
 * @module
 */
import { byClient, McpliteError } from "../errors/error.ts";

/** How a stdio remote is restarted; the clock and the jitter's source are given in tests. */
export interface RestartPolicy {
  /** The wait after the second failure in a row, in ms; it doubles with each failure after (default 250). */
  readonly baseMs?: number;
  /** The longest wait, in ms (default 30 000). */
  readonly capMs?: number;
  /** How long a child must have run for its failure to start the count over, in ms (default 30 000). */
  readonly healthyMs?: number;
  /** The clock, in ms. */
  readonly now?: () => number;
  /** A number in [0, 1), for the jitter. */
  readonly random?: () => number;
}

/**
 * The refusal of a call while the remote waits to be started again: `unavailable`, retryable after the
 * rest of the wait (a proxy answers it 503 with `Retry-After`, RFC 9110 §15.6.4).
 */
export class RestartPending extends McpliteError {
  /** The rest of the wait, in ms. */
  readonly retryAfterMs: number;

  /**
   * Creates the refusal.
   *
   * @param retryAfterMs The rest of the wait, in ms.
   */
  constructor(retryAfterMs: number) {
    super("unavailable", `The stdio server is restarted in ${retryAfterMs} ms`, { data: { retryAfterMs } });
    this.name = "RestartPending";
    byClient(this); // the client\'s own condition
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * The backoff of one stdio remote.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RestartBackoff } from "./restart-backoff.ts";
 * let now = 0;
 * const backoff = new RestartBackoff({ baseMs: 100, now: () => now, random: () => 0.999 });
 * backoff.started();
 * backoff.failed();
 * assert.equal(backoff.wait(), 0); // the first failure: started again at once
 * backoff.started();
 * backoff.failed();
 * assert.ok(backoff.wait() > 50 && backoff.wait() <= 100); // then a wait, with jitter
 * ```
 */
export class RestartBackoff {
  readonly #baseMs: number;
  readonly #capMs: number;
  readonly #healthyMs: number;
  readonly #now: () => number;
  readonly #random: () => number;
  #failures = 0;
  #startedAt = -Infinity;
  #notBefore = -Infinity;

  /**
   * Creates the backoff.
   *
   * @param policy The waits, the clock and the jitter's source.
   */
  constructor(policy: RestartPolicy = {}) {
    this.#baseMs = policy.baseMs ?? 250;
    this.#capMs = policy.capMs ?? 30_000;
    this.#healthyMs = policy.healthyMs ?? 30_000;
    this.#now = policy.now ?? Date.now;
    this.#random = policy.random ?? Math.random;
  }

  /** The rest of the wait before the next start, in ms; 0 when it may start now. */
  wait(): number {
    return Math.max(0, Math.ceil(this.#notBefore - this.#now()));
  }

  /** Notes that a child was started. */
  started(): void {
    this.#startedAt = this.#now();
  }

  /** Notes that the child failed (exited, or its pipe broke): the next start waits. */
  failed(): void {
    const now = this.#now();
    if (now - this.#startedAt >= this.#healthyMs) this.#failures = 0; // it ran healthy: start the count over
    const failures = ++this.#failures;
    if (failures === 1) return void (this.#notBefore = now); // a crash now and then costs no wait
    const delay = Math.min(this.#capMs, this.#baseMs * 2 ** Math.min(failures - 2, 30));
    this.#notBefore = now + delay / 2 + this.#random() * delay / 2; // "equal jitter": half fixed, half random
  }
}
