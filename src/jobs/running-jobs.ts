/**
 * The jobs running in this process: each one's {@link Job} and run (`job-run.ts`) from its start until its final
 * entry is written, its lease renewed meanwhile (a shared store), or, taken from a queue, its entry read now and then
 * for a cancellation made elsewhere (`entry-checks.ts`).
 *
 * @module
 */
import type { DeferredWork, JobBinder } from "../core/call/tool-promise.ts";
import { EntryChecks } from "./entry-checks.ts";
import { Job } from "./job.ts";
import { runJob, type RunOptions } from "./job-run.ts";
import type { Leases } from "./leases.ts";
import type { Suspension } from "./suspension.ts";

/** Options of a job's start: besides its run's (where errors go, the result's shaping, the time limit). */
export interface StartOptions extends RunOptions {
  /** Hands the work's context the job, so its questions park the job (from `ctx.defer()`). */
  readonly bind?: JobBinder;
  /** Keeps the work alive past the response (a Worker's `ctx.waitUntil`). */
  readonly waitUntil?: (work: Promise<unknown>) => void;
  /** The entry of a job taken from the queue (recorded by the instance that queued it); default a new one. */
  readonly id?: string;
  /** Aborts the work without ending the job: its worker shuts down, and the queue delivers it again. */
  readonly stop?: AbortSignal;
}

/** How often a parked job polls a shared store for answers given on another instance, in ms. */
const SHARED_POLL_MS = 250;

/** A server's store, clock and, with a shared store, lease length. */
type Engine = Omit<Leases, "leaseMs"> & { readonly leaseMs: number | undefined };

/** The jobs of one server running in this process, by id. */
export class RunningJobs extends Map<string, Job> {
  /** The runs of this process's jobs, until each has written its final entry. */
  readonly #runs = new Map<string, Promise<void>>();
  readonly #engine: Engine;
  /** The queued jobs running here: the long ones' entries are read for a cancellation made elsewhere. */
  readonly #checks: EntryChecks;

  /**
   * Creates the table of one server.
   *
   * @param engine The server's store and clock, and its lease length when the store is shared.
   */
  constructor(engine: Engine) {
    super();
    this.#engine = engine;
    this.#checks = new EntryChecks(engine.results, engine.codec.now, (engine.leaseMs ?? 5_000) / 3);
  }

  /** When a job running here has written its final entry; `undefined` when none runs here. */
  settled(id: string): Promise<void> | undefined {
    return this.#runs.get(id);
  }

  /**
   * Runs a job whose entry (and, unless queued, its lease) is written (at `at`, for `ttlMs`), in the background.
   *
   * @returns When its final entry is written (or given up): the run's {@link Suspension} when a queued job's work
   *   suspended.
   */
  launch(
    id: string,
    work: DeferredWork,
    ttlMs: number,
    options: StartOptions,
    at: number,
    queued = false,
  ): Promise<Suspension | undefined> {
    const { onError, bind, waitUntil, stop } = options;
    const engine = this.#engine, { results: store, codec: { now }, leaseMs } = engine;
    // Only a store shared with other instances (which holds leases) can carry answers given there.
    const pollMs = leaseMs === undefined ? undefined : SHARED_POLL_MS;
    const job = new Job(id, { store, ttlMs, expiresAt: at + ttlMs, now, pollMs, onError });
    this.set(id, job);
    bind?.(job);
    const abort = () => job.controller.abort(stop!.reason);
    stop?.addEventListener("abort", abort, { once: true });
    // Queued, its entry is read now and then; leased (in process, a shared store), its lease renewed too.
    if (queued || leaseMs !== undefined) this.#checks.add(job, at, onError, queued ? undefined : engine as Leases);
    const running = runJob(engine, job, work, ttlMs, options, () => this.delete(id), queued).finally(
      () => {
        this.#checks.remove(job);
        this.#runs.delete(id);
        stop?.removeEventListener("abort", abort);
      },
    );
    this.#runs.set(id, running as Promise<unknown> as Promise<void>);
    waitUntil?.(running); // on Workers, the work outlives the response only if the platform is told
    return running;
  }
}
