/**
 * How work is run again (`retry`): a tool's deferred work (`LongRunningOptions.retry`) and one step of it
 * (`work.step(name, fn, { retry })`) take the same options. Why: docs/concepts/long-running.md, "Retries".
 *
 * @module
 */

/**
 * The wait before a retry: a number of ms, the same before each; or `{ type: "exponential", delayMs, maxMs }`,
 * `delayMs` before the first retry, doubled before each next one, at most `maxMs` (default an hour), as BullMQ's
 * and Inngest's backoffs grow. Each wait is a durable sleep: journaled, and on a queue the job waits in the queue.
 *
 * @example
 * ```ts
 * import type { RetryBackoff } from "@mcplite/sdk/types";
 * const fixed: RetryBackoff = 500; // 500 ms before each retry
 * const growing: RetryBackoff = { type: "exponential", delayMs: 1_000, maxMs: 30_000 }; // 1 s, 2 s, 4 s, … 30 s
 * ```
 */
export type RetryBackoff = number | {
  /** Doubled before each retry after the first. */
  readonly type: "exponential";
  /** The wait before the first retry, in ms. */
  readonly delayMs: number;
  /** The longest wait, in ms (default 3 600 000, an hour). */
  readonly maxMs?: number;
};

/**
 * How work is run again (`LongRunningOptions.retry` for a tool's deferred work, `work.step(name, fn, { retry })` for
 * one step): when it throws a retryable error, and, for a tool's work, when its worker or instance stopped. At least
 * once: for work whose steps are journaled (`work.step()`) or idempotent. Final, never retried: a `ToolError` the
 * work throws (its answer on purpose), a `ProtocolError` it throws but for `unavailable`, `rate_limited` and the
 * timeouts, and a `NonRetryableError` (`@mcplite/sdk/errors`); any other error is retried.
 *
 * @example
 * ```ts
 * import * as v from "valibot";
 * import { defineTool } from "@mcplite/sdk";
 * import type { PromiseRetry } from "@mcplite/sdk/types";
 * const retry: PromiseRetry = { attempts: 3, backoff: { type: "exponential", delayMs: 1_000 } };
 * const report = defineTool("report")
 *   .input(v.object({ month: v.string() }))
 *   .longRunning({ retry })
 *   .defer(async ({ month }, work) => await work.step("build", () => `report of ${month}`));
 * ```
 */
export interface PromiseRetry {
  /** How many times the work may run in all, the first included (an integer from 1 to 100). */
  readonly attempts: number;
  /** The wait before each retry (default 0); a number is in ms, from 0 to 3 600 000. */
  readonly backoff?: RetryBackoff;
}
