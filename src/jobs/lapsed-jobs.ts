/**
 * With a shared store and no queue (or inline work, which never meets one), the in-process queue of a job that no
 * instance holds (its lease missing for a whole lease): the claims on its starts are its start count, as a queue's, and
 * the instance whose claim on the next start wins delivers it there, which `start-rule.ts` decides as it does a
 * worker's: the job runs again, or ends stopped. A job whose entry the store lost too ends lost. First writer wins.
 *
 * @module
 */
import type { DeferredWork } from "../core/call/tool-promise.ts";
import type { PromiseRetry } from "../core/definitions/retry-options.ts";
import { failureResult } from "../core/results/result.ts";
import { attemptOf, claimAttempt, leaseLapsed, type Leases } from "./leases.ts";
import type { StoredResult } from "./result-store.ts";
import type { RunningJobs, StartOptions } from "./running-jobs.ts";
import { startRule } from "./start-rule.ts";
import { LOST_MESSAGE } from "./stopped-jobs.ts";

/**
 * How a job is delivered again in this process, for the start that its claim won: the tool's `retry` (which starts
 * it may have, `start-rule.ts`) and, for a start, its work and options (`job-restart.ts` makes it, from a reading
 * request and the call's input in its token).
 */
export interface Redelivery {
  /** The tool's `retry`. */
  readonly retry: PromiseRetry;
  /**
   * A start of the job: its work and the options of its run.
   *
   * @param start The job's id, this start of it (from 2), when its entry expires (ms since the epoch), and the
   *   retry's backoff before the work runs.
   * @returns The work, and its options (`bind` hands it the job).
   */
  readonly start: (
    start: { readonly id: string; readonly attempt: number; readonly expiresAt: number; readonly backoffMs?: number },
  ) => { readonly work: DeferredWork; readonly options: StartOptions };
}

/**
 * Reads the entry of a job that no instance holds a lease on: not done yet until the lease of its current attempt
 * has been missing for a whole lease; then lost, delivered again here, or stopped.
 *
 * @param leases The store, clock and lease length.
 * @param jobs The jobs running here, where a job delivered again here runs.
 * @param id The entry id.
 * @param entry The entry as read (`undefined`: the store lost it), still working.
 * @param ttlMs How long a failure written here (or a job's entry, delivered again) lasts.
 * @param again How to deliver the job again (a tool's `retry`); without it, a stopped job fails.
 * @returns The entry.
 */
export async function readLapsed(
  leases: Leases,
  jobs: Pick<RunningJobs, "launch">,
  id: string,
  entry: StoredResult | undefined,
  ttlMs: number,
  again: Redelivery | undefined,
): Promise<StoredResult | undefined> {
  const { results, codec: { now } } = leases;
  // Not done yet until the lease of its current start has been missing for a whole lease.
  const working: StoredResult = entry ?? { status: "working" };
  const attempt = await attemptOf(leases, id); // 1 for a job without `retry`, which claims none
  if (!await leaseLapsed(leases, id, attempt, ttlMs)) return working;
  // Delivered again for its next start, which the rule of every start decides (without a redelivery: none is left).
  const rule = startRule(again?.retry, attempt + 1);
  if (entry !== undefined && again !== undefined && !("stopped" in rule)) {
    // This instance claims the start and, when it wins it, runs the job here. A stalled instance that comes back may
    // still finish its own start too: only an idempotent job may ask for this. The stopped start's questions went
    // with it; a result written meanwhile stands (not restarted).
    const at = now(), start = { id, attempt: attempt + 1, expiresAt: at + ttlMs, backoffMs: rule.backoffMs };
    if (
      await claimAttempt(leases, id, start.attempt, ttlMs) && await results.set(id, { status: "working", at }, ttlMs)
    ) {
      const { work, options } = again.start(start);
      void jobs.launch(id, work, ttlMs, options, now());
    }
    return working;
  }
  // Stopped; or, the store having lost the entry too, its result is gone. Said once and kept (first writer wins: a
  // result written meanwhile stands instead), so that every redeem, on every instance, gives this one answer.
  const failed: StoredResult = {
    status: "completed",
    result: failureResult(entry === undefined || !("stopped" in rule) ? LOST_MESSAGE : rule.stopped),
    at: now(),
  };
  if (await results.set(id, failed, ttlMs)) return failed;
  return await results.get(id);
}
