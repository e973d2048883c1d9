/**
 * What `retry` means, for a tool's work and for one step alike: which thrown errors are retried, how long each
 * retry waits, and the check of the options. The waits are durable sleeps of the job's journal, named here.
 * Why: docs/concepts/long-running.md, "Retries".
 *
 * @module
 */
import type { PromiseRetry, RetryBackoff } from "../core/definitions/retry-options.ts";
import { NonRetryableError } from "../errors/non-retryable-error.ts";
import { ProtocolError, raisedHere, ToolError } from "../errors/error.ts";
import type { Journal } from "./journal.ts";
import { JournalMismatch } from "./journal-mismatch.ts";

/** The most runs a retried piece of work may have. */
export const MAX_ATTEMPTS = 100;
/** The longest wait before a retry, in ms (an hour, the default token lifetime). */
export const MAX_BACKOFF_MS = 3_600_000;

/** The codes of a `ProtocolError` that say "try again later": the work's own refusals otherwise are final. */
const TRANSIENT = new Set(["unavailable", "rate_limited", "deadline_exceeded", "timeout", "request_timeout"]);

/**
 * Whether a retry may mend what the work threw: not for a {@link NonRetryableError}, a `ToolError` or a
 * `ProtocolError` it raised on purpose (but for the transient codes), a {@link JournalMismatch} (the work changed:
 * every start would meet it again), nor once its signal aborted (cancelled,
 * timed out, its worker stopping); never for a suspension (a durable sleep, the journal out of reach), which is no
 * failure. Errors a client read (a tool this work called failed) are any errors: retried.
 *
 * @param error What the work threw.
 * @param signal The work's signal.
 * @returns `true` when it is retried.
 */
export function isRetryable(error: unknown, signal: AbortSignal): boolean {
  if (signal.aborted) return false; // cancelled, timed out, stopping, or suspended: no failure of the work's
  if (error instanceof NonRetryableError || error instanceof JournalMismatch) return false;
  if (error instanceof ToolError && raisedHere(error)) return false;
  return !(error instanceof ProtocolError && raisedHere(error)) || TRANSIENT.has(error.code);
}

/**
 * The wait before a retry.
 *
 * @param backoff The backoff (default none).
 * @param retry Which retry, from 1.
 * @returns The wait, in ms.
 */
export function backoffMs(backoff: RetryBackoff | undefined, retry: number): number {
  if (backoff === undefined || typeof backoff === "number") return backoff ?? 0;
  return Math.min(backoff.maxMs ?? MAX_BACKOFF_MS, backoff.delayMs * 2 ** Math.min(retry - 1, 31));
}

/**
 * Checks a `retry`, so that a wrong value fails where it is written (a tool as a server adds it, a step as it runs).
 *
 * @param what Whose `retry` it is, for the messages (`tool "x"`, `work.step("y")`).
 * @param retry The options.
 * @throws {RangeError} For `attempts` not an integer from 1 to 100, or a backoff neither a number nor
 *   `{ type: "exponential", delayMs, maxMs? }`, or its ms outside 0–3 600 000.
 */
export function checkRetry(what: string, retry: PromiseRetry): void {
  const { attempts, backoff = 0 } = retry;
  const ms = (n: unknown) => typeof n === "number" && n >= 0 && n <= MAX_BACKOFF_MS;
  if (
    !(Number.isInteger(attempts) && attempts >= 1 && attempts <= MAX_ATTEMPTS) ||
    !(ms(backoff) || (backoff as { type?: unknown } | null)?.type === "exponential" &&
        ms((backoff as { delayMs: unknown }).delayMs) && ms((backoff as { maxMs?: unknown }).maxMs ?? 0))
  ) {
    throw new RangeError(
      `${what}: retry takes attempts 1–100, a backoff of 0–3600000 ms or { type: "exponential", delayMs }`,
    );
  }
}

/** Hears each retry as it is decided, for the server's log: what threw, and which retry follows (from 1). */
export type OnRetry = (error: unknown, retry: number) => void;

/**
 * How many failures earlier starts journaled: the waits named `name(1)`, `name(2)`, … up to the first missing (one
 * read each, and one more; none on a job's first start).
 *
 * @param journal The job's journal.
 * @param name The journal name of the `n`th failure's wait.
 * @param most The most there can be.
 * @returns The count.
 */
export async function failuresOf(journal: Journal, name: (n: number) => string, most: number): Promise<number> {
  let n = 0;
  while (n < most && await journal.recorded(name(n + 1))) n++;
  return n;
}

/**
 * Runs `run` again after each retryable error until it has failed `limit` times in all, each retry after its wait.
 * The wait is what counts the failures: a durable sleep named after the failure's number, recorded before it is
 * waited, so a later start finds it (`failuresOf()`).
 *
 * @param run One run, given the failures so far.
 * @param limit How many runs it may take in all, `failures` included.
 * @param failures The failures earlier starts journaled: what is left of the last one's wait is waited first.
 * @param wait The `n`th failure's wait: records and sleeps it.
 * @param signal The work's signal: nothing is retried once it aborted.
 * @param onRetry Hears each retry.
 * @returns `run`'s value.
 * @throws What `run` threw last, once it is final or no run is left.
 */
export async function retrying<T>(
  run: (failures: number) => Promise<T>,
  limit: number,
  failures: number,
  wait: (n: number) => Promise<void>,
  signal: AbortSignal,
  onRetry?: OnRetry,
): Promise<T> {
  if (failures > 0) await wait(failures);
  for (;;) {
    try {
      return await run(failures);
    } catch (error) {
      if (failures + 1 >= limit || !isRetryable(error, signal)) throw error;
      onRetry?.(error, ++failures);
      await wait(failures).catch((waiting) => {
        throw waiting instanceof RangeError ? error : waiting; // it would wake past the job's expiry: no retry
      });
    }
  }
}
