/**
 * One rule for every start of a job after its first, whoever counts its starts: the queue (a worker's delivery,
 * BullMQ's `stalledCounter + 1`) or, with a shared store and no queue, the claims of the instances that found its
 * lease lapsed (an in-process queue, `lapsed-jobs.ts`). Past what the tool's `retry` allows the job ends stopped;
 * else its work runs again after the retry's backoff, a durable sleep of its journal, its recorded steps read back.
 *
 * @module
 */
import type { PromiseRetry } from "../core/definitions/retry-options.ts";
import { backoffMs } from "./retries.ts";
import { stoppedMessage } from "./stopped-jobs.ts";

/**
 * What a job's start may do: end the job stopped (every start its tool's `retry` allows was cut off: the queue
 * counted them, or the instances that claimed them did), or run after a backoff (after a cut-off start).
 *
 * @param retry The tool's `retry`, if any.
 * @param start Which start this is, from 1.
 * @returns The job's failure, or the wait before its work runs.
 */
export function startRule(
  retry: PromiseRetry | undefined,
  start: number,
): { readonly stopped: string } | { readonly backoffMs: number | undefined } {
  const attempts = retry?.attempts ?? 1;
  if (start > attempts) return { stopped: stoppedMessage(attempts) };
  return { backoffMs: start > 1 ? backoffMs(retry?.backoff, start - 1) : undefined };
}
