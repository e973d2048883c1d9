/**
 * The checks a server with long-running support makes of a tool's `.longRunning()` options as it adds the tool:
 * the task support named, each number within its range, so that a wrong value fails at startup, not on a call.
 *
 * @module
 */
import type { LongRunningOptions } from "../core/definitions/tool.ts";
import { checkRetry } from "./retries.ts";
import { MAX_TIMER_MS } from "../internal/timer-ms.ts";

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
  if (timeoutMs !== undefined && !(timeoutMs >= 1 && timeoutMs <= MAX_TIMER_MS)) {
    throw new RangeError(`tool "${name}": timeoutMs must be from 1 to ${MAX_TIMER_MS}`);
  }
}
