/**
 * The checks a server with long-running support makes of a tool's `.longRunning()` options as it adds the tool:
 * the task support named, each number within its range, so that a wrong value fails at startup, not on a call.
 *
 * @module
 */
import type { LongRunningOptions } from "../core/definitions/tool.ts";
import { checkRetry } from "./retries.ts";

/** The longest `timeoutMs` of deferred work: the longest delay a timer takes (about 24.8 days). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;
/** The last priority BullMQ takes (2^21). */
export const MAX_PRIORITY = 2 ** 21;

/**
 * Checks a tool's long-running options.
 *
 * @param name The tool's name, for the messages.
 * @param options The options.
 * @throws {TypeError} When `taskSupport` is not `"optional"` or `"required"`; a `RangeError` for `retry.attempts`
 *   outside 1–100, a `retry.backoff` neither ms from 0 to 3 600 000 nor `{ type: "exponential", delayMs, maxMs? }`
 *   of such ms, or `timeoutMs` outside 1–2 147 483 647.
 */
export function checkLongRunning(name: string, options: LongRunningOptions): void {
  const support = options.taskSupport;
  if (support !== undefined && support !== "optional" && support !== "required") {
    throw new TypeError(`tool "${name}": taskSupport must be "optional" or "required"`);
  }
  if (options.retry !== undefined) checkRetry(`tool "${name}"`, options.retry); // a retry's ranges
  // A run's time limit: a timer's longest delay.
  const timeoutMs = options.timeoutMs;
  if (timeoutMs !== undefined && !(timeoutMs >= 1 && timeoutMs <= MAX_TIMEOUT_MS)) {
    throw new RangeError(`tool "${name}": timeoutMs must be from 1 to ${MAX_TIMEOUT_MS}`);
  }
  checkFlow(`tool "${name}"`, options);
}

/** Whether `n` is an integer from `min` to `max`. */
const within = (n: unknown, min: number, max: number) =>
  Number.isInteger(n) && (n as number) >= min && n as number <= max;

/** Checks a tool's flow control: its limits within their ranges, its keys functions. */
function checkFlow(tool: string, { concurrency, rateLimit, dedupe, priority }: LongRunningOptions): void {
  const keyed = (what: string, key: unknown, required = false) => {
    if (key === undefined ? required : typeof key !== "function") {
      throw new TypeError(`${tool}: ${what}.key must be a function of the arguments and caller that returns a string`);
    }
  };
  if (concurrency !== undefined) {
    if (!within(concurrency.limit, 1, 1_000)) throw new RangeError(`${tool}: concurrency.limit must be from 1 to 1000`);
    keyed("concurrency", concurrency.key);
  }
  if (rateLimit !== undefined) {
    if (!within(rateLimit.limit, 1, 1_000) || !within(rateLimit.periodMs, 1, 86_400_000)) {
      throw new RangeError(`${tool}: rateLimit needs a limit from 1 to 1000 and a periodMs from 1 to 86400000`);
    }
    keyed("rateLimit", rateLimit.key);
  }
  if (dedupe !== undefined) {
    keyed("dedupe", dedupe.key, true);
    if (dedupe.ttlMs !== undefined && !within(dedupe.ttlMs, 1, MAX_TIMEOUT_MS)) {
      throw new RangeError(`${tool}: dedupe.ttlMs must be from 1 to ${MAX_TIMEOUT_MS}`);
    }
  }
  if (priority !== undefined && typeof priority !== "function" && !within(priority, 1, MAX_PRIORITY)) {
    throw new RangeError(`${tool}: priority must be from 1 (first) to ${MAX_PRIORITY}, or a function of the arguments`);
  }
}
