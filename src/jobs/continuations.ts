/**
 * The server's machinery for calls that finish later: the token codec, the defaults, and the jobs of
 * deferred work (each run by `job-run.ts`) with their result store and leases. One per server, built once.
 *
 * @module
 */
import { base64urlEncode } from "../codec/base64url.ts";
import type { CallSink, InputRequest } from "../core/call/call-sink.ts";
import type { TokenCodec } from "../codec/token.ts";
import type { Runtime } from "../core/instance/runtime.ts";
import { createTokens, type Tokens, type TokensOptions } from "../core/instance/tokens.ts";
import { ProtocolError } from "../errors/error.ts";
import { isInputAnswer } from "../core/call/call-sink.ts";
import { guardJournalStore, guardStore, isUnavailable, storeGuard } from "./guarded-store.ts";
import type { JournalStore } from "./journal-store.ts";
import { journalStoreFromResults } from "./result-store-journals.ts";
import { storeOnce } from "./store-once.ts";
import { Job } from "./job.ts";
import { EntryChecks } from "./entry-checks.ts";
import { runJob, type RunOptions } from "./job-run.ts";
import { failureResult } from "../core/results/result.ts";
import { createMemoryResultStore, hasEnded, type ResultStore, type StoredResult } from "./result-store.ts";
import { sleep } from "../internal/sleep.ts";
import { unrefTimer } from "../runtime/unref-timer.ts";
import type { DeferredWork, JobBinder } from "../core/call/tool-promise.ts";
import type { WorkQueue } from "./work-queue.ts";
import { queueUnavailable } from "./queue-unavailable.ts";
import type { Suspension } from "./suspension.ts";

/** How often a parked job polls a shared store for answers given on another instance, in ms. */
const SHARED_POLL_MS = 250;

/** The message of a job whose instance stopped renewing its lease. */
export const STOPPED_MESSAGE = "The instance running this job stopped before it finished";
/** The failure of a job whose result the shared store lost (it came back empty, or evicted it). */
export const LOST_MESSAGE = "The result of this job was lost: the result store no longer holds it (it restarted " +
  "empty or evicted it) and no instance is running the job. Call the tool again";

/**
 * The error for deferred work this instance does not hold (it ran in another, or expired): invalid params with
 * `data.reason: "result_not_found"`, which every wire's callers read, and the advice (a shared `ResultStore`).
 *
 * @param what What was asked for; `kept`: what the work keeps in its process; `serve`: what a shared store allows.
 * @returns The error.
 */
export function resultNotHeld(what: string, kept: string, serve: string): ProtocolError {
  const message = `${what}: work started with ctx.defer() keeps its ${kept} in the process that ran it. To ${serve} ` +
    "on any instance, give every instance a shared ResultStore (the resultStore option).";
  return new ProtocolError("invalid_params", message, { data: { reason: "result_not_found" } });
}

/**
 * The engine a server's runtime holds, as this layer made it: the core keeps it typed by its contract (`JobEngine`,
 * `src/core/long-running/job-engine.ts`) and calls none of its work.
 *
 * @param runtime The server's runtime.
 * @returns Its engine.
 * @throws {ProtocolError} `invalid_params` on a server without long-running support.
 */
export function continuationsOf(runtime: Runtime): Continuations {
  return runtime.continuations as Continuations;
}

/** The store key of a job's lease: present while an instance runs the job. */
export function leaseKey(id: string): string {
  return `lease:${id}`;
}

/** The store key that marks when the lease of a job's attempt was first found missing. */
function lapseKey(id: string, attempt: number): string {
  return attempt === 1 ? `lapse:${id}` : `lapse:${id}:${attempt}`;
}

/** The store key of the claim on a job's attempt (from the second on). */
function attemptKey(id: string, attempt: number): string {
  return `attempt:${id}:${attempt}`;
}

/**
 * How {@link Continuations.read} starts again a job whose instance stopped (a tool's
 * `.longRunning({ retry })`): as many starts in all, the wait, and the tool's handler run again.
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

/** Options of {@link Continuations.start}: besides its run's (where errors go, the result's shaping, the time limit). */
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

/** Options of {@link Continuations}: the tokens' (codec and lifetimes), plus the store. */
export interface ContinuationsOptions extends TokensOptions {
  /** Where deferred results wait (default: an in-memory store of this process). */
  results?: ResultStore;
  /** Where jobs keep their journals (default: the result store's own, else its entries). */
  journals?: JournalStore;
  /**
   * With a shared store, how long a running job's lease lasts, in ms (default 5 000): the instance
   * running it renews it every third of that, and a redeem on any instance that finds it lapsed (and
   * no result) answers that the instance stopped, instead of "not done yet" until the token expires.
   */
  leaseMs?: number;
  /** Receives the store's errors, once per outage (the wires answer "retry later" meanwhile). */
  onError?: (error: unknown) => void;
  /** Where deferred work goes to be run by workers (`runWorker()`); needs a shared `results` store. */
  queue?: WorkQueue;
}

/** The server's tokens, defaults and deferred work. */
export class Continuations implements Tokens {
  /** Signs and checks every token. */
  declare readonly codec: TokenCodec;
  /** Where deferred results wait. */
  declare readonly results: ResultStore;
  /** Where jobs keep their journals. */
  declare readonly journals: JournalStore;
  /** How long promise tokens last, in ms. */
  declare readonly promiseTtlMs: number;
  /** How long `requestState` lasts, in ms. */
  declare readonly inputTtlMs: number;
  /** The default `retry_after_ms`. */
  declare readonly retryAfterMs: number;
  /** Where deferred work goes, when workers run it; the queue then owns its delivery, not the lease. */
  declare readonly queue: WorkQueue | undefined;
  readonly #running = new Map<string, Job>();
  /** The runs of this process's jobs, until each has written its final entry. */
  readonly #runs = new Map<string, Promise<void>>();
  readonly #pollMs: number | undefined;
  readonly #leaseMs: number | undefined;
  /** The queued jobs running here: the long ones' entries are read for a cancellation made elsewhere. */
  readonly #checks: EntryChecks;

  /**
   * Creates the machinery; the server does this once, from its options.
   *
   * @param options The secret, sealing, bounds, defaults and store.
   * @throws {TypeError} When a secret is shorter than 32 bytes.
   */
  constructor(options: ContinuationsOptions = {}) {
    const tokens = createTokens(options);
    this.codec = tokens.codec;
    const guard = storeGuard(tokens.retryAfterMs, options.onError); // one per backend: an outage is told once
    this.results = storeOnce(
      options.results === undefined
        ? createMemoryResultStore({ now: options.now })
        : guardStore(options.results, guard),
    );
    const journals = options.journals ?? options.results?.journalStore;
    this.journals = journals === undefined ? journalStoreFromResults(this.results) : guardJournalStore(journals, guard);
    this.promiseTtlMs = tokens.promiseTtlMs;
    this.inputTtlMs = tokens.inputTtlMs;
    this.retryAfterMs = tokens.retryAfterMs;
    // Only a store shared with other instances can carry answers given there.
    this.#pollMs = options.results === undefined ? undefined : SHARED_POLL_MS;
    this.#leaseMs = options.results === undefined ? undefined : options.leaseMs ?? 5_000;
    if (this.#leaseMs !== undefined && !(this.#leaseMs > 0)) throw new RangeError("leaseMs must be positive");
    this.#checks = new EntryChecks(this.results, this.codec.now, (this.#leaseMs ?? 5_000) / 3);
    this.queue = options.queue;
    if (this.queue !== undefined && options.results === undefined) {
      throw new TypeError("a queue needs a result store its workers share (resultStore)");
    }
  }

  /** How many deferred jobs are running in this process. */
  get running(): number {
    return this.#running.size;
  }

  /**
   * Records a job as working, then runs it in the background; its result (or failure) replaces the
   * entry when it settles, unless the job was cancelled meanwhile.
   *
   * @param work The work.
   * @param ttlMs How long the entry lasts.
   * @param options Where errors go, the binder of the work's context, the shaping of its result, and
   *   the platform's `waitUntil`.
   * @returns The entry id.
   */
  async start(work: DeferredWork, ttlMs: number, options: StartOptions): Promise<string> {
    const id = options.id ?? base64urlEncode(crypto.getRandomValues(new Uint8Array(16)));
    // A job taken from a queue runs only while its entry has not ended: first writer wins.
    const at = this.codec.now();
    if (!await this.results.set(id, { status: "working", at }, ttlMs)) return id;
    if (this.#leaseMs !== undefined) await this.results.set(leaseKey(id), { status: "working" }, this.#leaseMs);
    void this.#launch(id, work, ttlMs, options, at);
    return id;
  }

  /**
   * Runs a job taken from the queue (`queued-job.ts`) in the background: its entry was written by the instance that
   * queued it, and the queue's lock and stalled-job check stand for its lease, so nothing is written before its end.
   * A cancellation made on another instance is noticed by reading the entry, only once the job has run a while.
   *
   * @param id The entry id.
   * @param work The work.
   * @param ttlMs How long the entry lasts from now.
   * @param options Where errors go, the binder, the shaping of its result, the time limit, the worker's `stop`.
   * @returns When its final entry is written (or given up): the run's {@link Suspension} when its work suspended (a
   *   durable sleep, the store out of reach; nothing written: the queue delivers the job again at its wake time).
   */
  runQueued(id: string, work: DeferredWork, ttlMs: number, options: StartOptions): Promise<Suspension | undefined> {
    return this.#launch(id, work, ttlMs, options, this.codec.now(), true);
  }

  /** Runs a job whose entry (and, unless queued, its lease) is written (at `at`, for `ttlMs`), in the background. */
  #launch(
    id: string,
    work: DeferredWork,
    ttlMs: number,
    options: StartOptions,
    at = this.codec.now(),
    queued = false,
  ): Promise<Suspension | undefined> {
    const { onError, bind, waitUntil, stop } = options;
    const job = new Job(id, {
      store: this.results,
      ttlMs,
      expiresAt: at + ttlMs,
      now: this.codec.now,
      pollMs: this.#pollMs,
      onError,
    });
    this.#running.set(id, job);
    bind?.(job);
    const abort = () => job.controller.abort(stop!.reason);
    stop?.addEventListener("abort", abort, { once: true });
    if (queued) this.#checks.add(job, at, onError);
    const heartbeat = queued ? undefined : this.#heartbeat(job, onError);
    const running = runJob(this, job, work, ttlMs, options, () => this.#running.delete(id), queued).finally(() => {
      if (queued) this.#checks.remove(job);
      else clearInterval(heartbeat);
      this.#runs.delete(id);
      stop?.removeEventListener("abort", abort);
    });
    this.#runs.set(id, running as Promise<unknown> as Promise<void>);
    waitUntil?.(running); // on Workers, the work outlives the response only if the platform is told
    return running;
  }

  /**
   * Follows a job running in this process, or on a worker when the queue carries progress: its progress
   * (and here its logs) go to `sink` until the returned function is called (a stream that pushes the
   * job's updates, MCP-lite spec v0.042 §5.3).
   *
   * @param id The entry id.
   * @param sink Where the progress and logs go.
   * @returns Stops following; `undefined` when no such job runs here and the queue cannot follow it.
   */
  watch(id: string, sink: CallSink): (() => void) | undefined {
    // A job on a worker: the queue carries its progress and logs, when it can. Its work reports progress again when
    // it runs again (after a wake-up, a restart): a report not above the highest is dropped (MCP 2025-11-25,
    // Progress: "The progress value MUST increase with each notification").
    let top = -Infinity;
    return this.#running.get(id)?.watch(sink) ??
      this.queue?.watch?.(
        id,
        (u) =>
          "log" in u
            ? sink.log?.(u.log.level, u.log.data, u.log.logger)
            : u.progress > top && sink.progress?.(top = u.progress, u.total, u.message),
      );
  }

  /**
   * Tells when a job running in this process has written its final entry, for whoever waits on it
   * (an MCP call held open for a client without tasks).
   *
   * @param id The entry id.
   * @returns When the job's final entry is written, or `undefined` when no such job runs here.
   */
  settled(id: string): Promise<void> | undefined {
    return this.#runs.get(id);
  }

  /**
   * Reads a job's entry as redeem and `tasks/get` answer it. With a shared store, a job still running
   * whose lease has stayed missing for a whole lease (its instance stopped) is started again here when
   * `restart` allows another attempt, else ends here as failed: first writer wins, so a result written
   * meanwhile stands instead, and every instance answers the same. An entry the store lost (it came
   * back empty) whose job no instance holds for a whole lease ends as lost, likewise.
   *
   * @param id The entry id.
   * @param ttlMs How long a failure written here (or a restarted job's entry) lasts.
   * @param restart How to start the job again (a tool's `retry`); without it, a stopped job fails.
   * @returns The entry, or `undefined` when the store does not hold it and has no lease (one process).
   * @throws {ProtocolError} `unavailable` while the store is out of reach.
   */
  async read(id: string, ttlMs: number, restart?: Restart): Promise<StoredResult | undefined> {
    const entry = await this.results.get(id);
    const leaseMs = this.#leaseMs;
    // With a queue, the queue delivers the job of a worker that stopped to another: no lease to watch.
    if (leaseMs === undefined || this.queue !== undefined || (entry !== undefined && hasEnded(entry))) return entry;
    // A shared store that restarted empty lost the entry of a job still running (its heartbeat writes
    // it again) or finished (its final write is being retried): while the lease says so, not done yet.
    const working: StoredResult = entry ?? { status: "working" };
    if (this.#running.has(id) || await this.results.get(leaseKey(id)) !== undefined) return working;
    // Right after a store outage the lease may have expired while its instance, alive, has not yet
    // renewed it (it does within a third of a lease once its connection is back): the job counts as
    // stopped only once the lease of its current attempt has been missing for a whole lease.
    const attempt = restart === undefined ? 1 : await this.#attempt(id, restart.attempts);
    const now = this.codec.now();
    const missingSince = (await this.results.get(lapseKey(id, attempt)))?.at;
    if (missingSince === undefined) {
      await this.results.set(lapseKey(id, attempt), { status: "working", at: now }, 2 * leaseMs);
      return working;
    }
    if (now - missingSince < leaseMs) return working;
    if (entry === undefined) {
      // The store lost the entry and no instance has held the job for a whole lease: its result is gone.
      // Said once and kept, so that every redeem, on every instance, gives this one answer from now on.
      const lost: StoredResult = { status: "completed", result: failureResult(LOST_MESSAGE), at: now };
      if (await this.results.set(id, lost, ttlMs)) return lost;
      return await this.results.get(id);
    }
    if (restart !== undefined && attempt < restart.attempts) {
      await this.#takeOver(id, attempt + 1, ttlMs, restart);
      return working;
    }
    const message = attempt === 1 ? STOPPED_MESSAGE : `${STOPPED_MESSAGE} (${attempt} attempts)`;
    const stopped: StoredResult = { status: "completed", result: failureResult(message), at: now };
    if (await this.results.set(id, stopped, ttlMs)) return stopped;
    return await this.results.get(id);
  }

  /** How long a job's lease lasts unless its holder renews it (every third of it), with a shared store. */
  get leaseMs(): number | undefined {
    return this.#leaseMs;
  }

  /** The attempt a job is on: the last one claimed (the first needs no claim). */
  async #attempt(id: string, attempts: number): Promise<number> {
    for (let next = 2; next <= attempts; next++) {
      if (await this.results.get(attemptKey(id, next)) === undefined) return next - 1;
    }
    return attempts;
  }

  /**
   * Claims a job's next attempt and, when this instance wins it, runs the job here again. The claim is
   * an ended entry, which the store writes only where none is (first writer wins, atomically on a
   * shared store), so two instances that find the same lease lapsed never both take the same attempt.
   * A stalled instance that comes back may still finish its attempt too: only an idempotent job may
   * ask for this.
   */
  async #takeOver(id: string, attempt: number, ttlMs: number, restart: Restart): Promise<void> {
    const now = this.codec.now();
    // The lease first: no reader finds it missing between the claim and the run.
    await this.results.set(leaseKey(id), { status: "working" }, this.#leaseMs!);
    if (!await this.results.set(attemptKey(id, attempt), { status: "cancelled", at: now }, ttlMs)) return;
    // The stopped attempt's questions went with it; a result written meanwhile stands (not restarted).
    if (!await this.results.set(id, { status: "working", at: now }, ttlMs)) return;
    let sink: CallSink = {};
    const expiresAt = now + ttlMs;
    const work: DeferredWork = async (signal) => {
      await sleep(restart.backoffMs, signal);
      return await restart.work(sink, signal, { id, attempt, expiresAt });
    };
    void this.#launch(id, work, ttlMs, { ...restart.options, bind: (job) => sink = job });
  }

  /**
   * Cancels a job: aborts its work if it runs here and records it as cancelled. Idempotent: a job that
   * ended already keeps its entry (first writer wins, on any instance).
   *
   * @param id The entry id.
   * @param ttlMs How long the cancelled entry lasts.
   * @returns Whether the cancellation won: the job was still running.
   */
  async cancel(id: string, ttlMs: number): Promise<boolean> {
    const entry = await this.results.get(id);
    const job = this.#running.get(id);
    this.#running.delete(id);
    job?.controller.abort(new Error("the promise was cancelled"));
    if (entry === undefined || hasEnded(entry)) return false;
    const cancelled: StoredResult = { status: "cancelled", at: this.codec.now() };
    if (job !== undefined) return await job.settle(cancelled); // after any write the job made
    // Out of its queue first, where the queue can (`WorkQueue.remove`): never delivered, and its worker reads nothing.
    await this.queue?.remove?.(id).catch((cause) => {
      throw queueUnavailable(cause, this.retryAfterMs);
    });
    return await this.results.set(id, cancelled, ttlMs);
  }

  /**
   * Delivers the client's answers to a job waiting for input. Here, they resume it; for a job running
   * on another instance (a shared store), they wait in its entry until that instance picks them up.
   * Answers to questions the job did not ask, or of the wrong shape, are ignored.
   *
   * @param id The entry id.
   * @param responses The answers, by key.
   * @param ttlMs How long the entry lasts.
   * @returns `false` when the store does not hold the job (unknown, expired, or another instance's
   *   without a shared store).
   */
  async answer(id: string, responses: Readonly<Record<string, unknown>>, ttlMs: number): Promise<boolean> {
    const job = this.#running.get(id);
    if (job !== undefined) {
      await job.deliver(responses);
      return true;
    }
    const entry = await this.results.get(id);
    if (entry === undefined) return false;
    if (entry.status !== "input_required") return true; // nothing asked: answers are ignored
    const requests: Record<string, InputRequest> = {};
    const answers: Record<string, unknown> = { ...entry.answers };
    for (const [key, request] of Object.entries(entry.requests)) {
      if (Object.hasOwn(responses, key) && isInputAnswer(request.method, responses[key])) answers[key] = responses[key];
      else requests[key] = request;
    }
    const at = this.codec.now();
    await this.results.set(
      id,
      Object.keys(requests).length > 0
        ? { status: "input_required", requests, answers, at }
        : { status: "working", answers, at },
      ttlMs,
    );
    return true;
  }

  /**
   * Renews a running job's lease every third of its length (with a shared store), until cleared; a job
   * whose entry ended meanwhile (cancelled on another instance) is aborted there and then.
   */
  #heartbeat(job: Job, onError?: (error: unknown) => void): ReturnType<typeof setInterval> | undefined {
    const leaseMs = this.#leaseMs;
    if (leaseMs === undefined) return undefined;
    const beat = async () => {
      await this.results.set(leaseKey(job.id), { status: "working" }, leaseMs);
      const entry = await this.results.get(job.id);
      if (entry === undefined) await job.refresh(); // a store restarted empty: the job shows again
      else if (hasEnded(entry)) job.controller.abort(new Error("the promise was cancelled"));
    };
    const report = (error: unknown) => isUnavailable(error) || onError?.(error); // an outage is reported once
    return unrefTimer(setInterval(() => beat().catch(report), Math.max(1, Math.floor(leaseMs / 3))));
  }
}
