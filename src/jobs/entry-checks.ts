/**
 * One timer per process for the entries of the jobs running there, every third of a lease: it renews the lease of each
 * job run in process with a shared store and reads its entry, and reads the entry of each queued job that has run a
 * while (a short job ends before anyone needs to; the queue's lock stands for its lease). An entry ended meanwhile
 * (cancelled on another instance) aborts its job; one the store lost (restarted empty) is written again.
 *
 * @module
 */
import { isUnavailable } from "./guarded-store.ts";
import type { Job } from "./job.ts";
import { hasEnded, type ResultStore } from "./result-store.ts";
import { clearLapse, holdLease, type Leases } from "./leases.ts";
import { unrefTimer } from "../runtime/unref-timer.ts";

/**
 * Reads a running job's entry: one ended meanwhile (cancelled on another instance) aborts the job; one the store lost
 * (restarted empty) is written again, so the job shows again.
 *
 * @param store The result store.
 * @param job The job.
 * @returns When done.
 */
export async function checkEntry(store: ResultStore, job: Job): Promise<void> {
  const entry = await store.get(job.id);
  if (entry === undefined) await job.refresh();
  else if (hasEnded(entry)) job.controller.abort(new Error("the promise was cancelled"));
}

/** The jobs running in this process: each leased one renewed and read every `everyMs`, each queued one read once it
 * has run that long. */
export class EntryChecks {
  readonly #jobs = new Map<
    Job,
    {
      readonly at: number;
      readonly onError?: (error: unknown) => void;
      readonly lease?: Leases;
      /** When its lease was last renewed (taken, at first). */
      renewed: number;
    }
  >();
  readonly #store: ResultStore;
  readonly #now: () => number;
  readonly #everyMs: number;
  #timer: ReturnType<typeof setInterval> | undefined;

  /**
   * Creates the checks of one process.
   *
   * @param store The result store.
   * @param now The clock, in ms since the epoch.
   * @param everyMs How long a job runs before its entry is read, and how often it is then.
   */
  constructor(store: ResultStore, now: () => number, everyMs: number) {
    this.#store = store;
    this.#now = now;
    this.#everyMs = Math.max(1, Math.floor(everyMs));
  }

  /**
   * Checks `job`, started at `at`, until {@link EntryChecks.remove}; its store's errors go to `onError`. With
   * `lease`, its lease is renewed from the first tick on (its holder took it as the job started).
   */
  add(job: Job, at: number, onError?: (error: unknown) => void, lease?: Leases): void {
    this.#jobs.set(job, { at, onError, lease, renewed: at });
    this.#timer ??= unrefTimer(setInterval(() => this.#check(), this.#everyMs));
  }

  /** Stops checking `job`; the timer stops with the last one. */
  remove(job: Job): void {
    this.#jobs.delete(job);
    if (this.#jobs.size > 0) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #check(): void {
    const since = this.#now() - this.#everyMs;
    for (const [job, checked] of this.#jobs) {
      const { at, onError, lease } = checked;
      if (lease === undefined && at > since) continue;
      (lease === undefined ? checkEntry(this.#store, job) : this.#renew(job, lease, checked))
        .catch((error) => isUnavailable(error) || onError?.(error)); // an outage is reported once
    }
  }

  /**
   * Renews a leased job's lease, then reads its entry. A renewal that comes a whole lease after the last (a store
   * outage, a stalled process) clears the mark a reader may have made of the lease found missing meanwhile.
   */
  async #renew(job: Job, lease: Leases, checked: { renewed: number }): Promise<void> {
    await holdLease(lease, job.id);
    const at = this.#now(), late = at - checked.renewed >= lease.leaseMs;
    checked.renewed = at;
    if (late) await clearLapse(lease, job.id);
    await checkEntry(this.#store, job);
  }
}
