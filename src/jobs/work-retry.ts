/**
 * A tool's work run again when it throws (`.longRunning({ retry })`): at most `attempts` runs of the job in all,
 * process deaths and thrown errors alike. Deaths are counted as starts (the queue's count, or in process the claims
 * of the instances that deliver a lapsed job again): that count is the start this run is given. Thrown errors are
 * counted in the journal, by the backoff each one waits (a durable sleep named after the failure's number, recorded
 * before it is waited): a run's attempt is its start plus the failures journaled. On a queue the wait hands the job
 * back to the queue (no slot held); in process it is a timer. Why: docs/concepts/long-running.md, "Retries".
 *
 * @module
 */
import type { PromiseRetry } from "../core/definitions/retry-options.ts";
import { ToolError } from "../errors/error.ts";
import type { Journal } from "./journal.ts";
import { backoffMs, failuresOf, type OnRetry, retrying } from "./retries.ts";
import { stoppedMessage } from "./stopped-jobs.ts";

/** This start of the job, as its runner knows it. */
export interface RetriedStart {
  /** Which start, from 1, by the count of deaths (the queue's, or the lease claims'). */
  readonly attempt: number;
  /** No earlier start can have journaled anything. */
  readonly fresh: boolean;
  /** The wait before this start (after a death), journaled as a sleep. */
  readonly backoffMs?: number;
}

/**
 * Runs the work, again after each retryable error while `retry` allows.
 *
 * @param run One run of the work: its attempt (what `work.attempt` says) and whether nothing was journaled before.
 * @param journal The job's journal, for the waits (a journal of its own: the work's step names are not taken).
 * @param retry The tool's `retry`, if any.
 * @param start This start.
 * @param signal The work's signal.
 * @param onRetry Hears each retry.
 * @returns The work's value.
 * @throws The work's error once it is final, or no attempt is left; a `ToolError` saying the job stopped when its
 *   deaths and failures together already took every attempt.
 */
export async function retryingWork(
  run: (attempt: number, fresh: boolean) => Promise<unknown>,
  journal: Journal,
  retry: PromiseRetry | undefined,
  start: RetriedStart,
  signal: AbortSignal,
  onRetry?: OnRetry,
): Promise<unknown> {
  // A start after a death waits its backoff once: a durable sleep, so a delivery after a later sleep does not wait again.
  if (start.backoffMs) await journal.sleep(start.backoffMs, signal, `~backoff:${start.attempt}`);
  const attempts = retry?.attempts ?? 1;
  if (attempts === 1) return await run(start.attempt, start.fresh);
  const failure = (n: number) => `~failed:${n}`;
  const failures = await failuresOf(journal, failure, attempts - 1);
  // A death after the last retry's failure: the job has had every run it may.
  if (start.attempt + failures > attempts) throw new ToolError(stoppedMessage(attempts));
  return await retrying(
    (n) => run(start.attempt + n, start.fresh && n === 0),
    attempts - start.attempt + 1,
    failures,
    (n) => journal.sleep(backoffMs(retry!.backoff, n), signal, failure(n)),
    signal,
    onRetry,
  );
}
