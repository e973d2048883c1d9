/**
 * What a read finds of a job that no instance holds (its lease missing for a whole lease, with a shared store and
 * no queue): lost, when the store lost its entry too; started again here, when its tool's `retry` allows another
 * attempt (a takeover); else stopped. Each end is written first writer wins, so every instance answers the same.
 *
 * @module
 */
import type { CallSink } from "../core/call/call-sink.ts";
import type { DeferredWork } from "../core/call/tool-promise.ts";
import { failureResult } from "../core/results/result.ts";
import { sleep } from "../internal/sleep.ts";
import { attemptOf, claimAttempt, leaseLapsed, type Leases } from "./leases.ts";
import type { StoredResult } from "./result-store.ts";
import type { RunningJobs, StartOptions } from "./running-jobs.ts";
import { LOST_MESSAGE, stoppedMessage } from "./stopped-jobs.ts";

/**
 * How a read starts again a job whose instance stopped (a tool's `.longRunning({ retry })`): as many starts in
 * all, the wait, and the tool's handler run again.
 */
export interface Restart {
  /** How many times the work may start in all, the first included. */
  readonly attempts: number;
  /** The wait before the work starts again, in ms. */
  readonly backoffMs: number;
  /**
   * Runs the tool's handler again and the work it defers (inside the server's middleware); their
   * questions go to `sink` (the job).
   *
   * @param sink The job, where the handler's context asks.
   * @param signal Aborts with the job.
   * @param start The job's id, this start of it (from 2) and when its entry expires (ms since the epoch).
   * @returns What `options.shape` makes the job's result of.
   */
  readonly work: (
    sink: CallSink,
    signal: AbortSignal,
    start: { readonly id: string; readonly attempt: number; readonly expiresAt: number },
  ) => Promise<unknown>;
  /** The start options of the work (its result's shaping, where errors go, the host's `waitUntil`). */
  readonly options: StartOptions;
}

/**
 * Reads the entry of a job that no instance holds a lease on: not done yet until the lease of its current attempt
 * has been missing for a whole lease; then lost, restarted, or stopped.
 *
 * @param leases The store, clock and lease length.
 * @param jobs The jobs running here, where a job taken over runs.
 * @param id The entry id.
 * @param entry The entry as read (`undefined`: the store lost it), still working.
 * @param ttlMs How long a failure written here (or a restarted job's entry) lasts.
 * @param restart How to start the job again (a tool's `retry`); without it, a stopped job fails.
 * @returns The entry.
 */
export async function readLapsed(
  leases: Leases,
  jobs: Pick<RunningJobs, "launch">,
  id: string,
  entry: StoredResult | undefined,
  ttlMs: number,
  restart: Restart | undefined,
): Promise<StoredResult | undefined> {
  const { results, codec: { now } } = leases;
  // Not done yet until the lease of its current attempt has been missing for a whole lease.
  const working: StoredResult = entry ?? { status: "working" };
  const attempt = restart === undefined ? 1 : await attemptOf(leases, id, restart.attempts);
  if (!await leaseLapsed(leases, id, attempt)) return working;
  if (entry !== undefined && restart !== undefined && attempt < restart.attempts) {
    // Taken over: this instance claims the next attempt and, when it wins it, runs the job here again. A stalled
    // instance that comes back may still finish its attempt too: only an idempotent job may ask for this. The
    // stopped attempt's questions went with it; a result written meanwhile stands (not restarted).
    const next = attempt + 1, at = now(), expiresAt = at + ttlMs;
    if (!await claimAttempt(leases, id, next, ttlMs) || !await results.set(id, { status: "working", at }, ttlMs)) {
      return working;
    }
    let sink: CallSink = {};
    const work: DeferredWork = async (signal) => {
      await sleep(restart.backoffMs, signal);
      return await restart.work(sink, signal, { id, attempt: next, expiresAt });
    };
    void jobs.launch(id, work, ttlMs, { ...restart.options, bind: (job) => sink = job }, now());
    return working;
  }
  // Stopped; or, the store having lost the entry too, its result is gone. Said once and kept (first writer wins: a
  // result written meanwhile stands instead), so that every redeem, on every instance, gives this one answer.
  const failed: StoredResult = {
    status: "completed",
    result: failureResult(entry === undefined ? LOST_MESSAGE : stoppedMessage(attempt)),
    at: now(),
  };
  if (await results.set(id, failed, ttlMs)) return failed;
  return await results.get(id);
}
