/**
 * A step's own retries (`work.step(name, fn, { retry })`): `fn` runs again when it throws a retryable error, at most
 * `attempts` runs in all, each retry after its backoff, a durable sleep of the job's journal named after the step and
 * the failure's number. The journal holds the count, so a start after a worker died mid-retry goes on from the
 * failures recorded, never from the first: a start counts its failures by reading their waits back.
 *
 * @module
 */
import type { PromiseRetry } from "../core/definitions/retry-options.ts";
import type { Journal } from "./journal.ts";
import { backoffMs, checkRetry, failuresOf, type OnRetry, retrying } from "./retries.ts";

/**
 * Wraps a step's `fn` in its retries.
 *
 * @param journal The job's journal, as this start sees it.
 * @param name The step's name.
 * @param run The step's `fn`.
 * @param retry The step's `retry`.
 * @param signal The work's signal: a retry's wait ends with it, and nothing is retried once it aborted.
 * @param onRetry Hears each retry.
 * @returns The `fn` the journal runs: the step's value, or the last error once no retry is left (a later start of
 *   the job runs `fn` once more).
 * @throws {RangeError} For `retry` out of its ranges (`checkRetry()`), as the step starts.
 */
export function retryingStep<T>(
  journal: Journal,
  name: string,
  run: (key: string) => T | Promise<T>,
  retry: PromiseRetry,
  signal: AbortSignal,
  onRetry?: OnRetry,
): (key: string) => Promise<T> {
  checkRetry(`work.step("${name}")`, retry);
  const failure = (n: number) => `~retry:${n}:${name}`; // the number first: no step name can make another's
  return async (key) =>
    await retrying(
      async () => await run(key),
      retry.attempts,
      await failuresOf(journal, failure, retry.attempts),
      (n) => journal.sleep(backoffMs(retry.backoff, n), signal, failure(n)),
      signal,
      onRetry,
    );
}
