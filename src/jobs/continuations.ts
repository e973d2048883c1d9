/**
 * The server's engine for calls that finish later, one per server: its token codec and defaults, its stores and queue
 * (`job-stores.ts`), the features that hear of jobs' ends (`job-ends.ts`), and the runner: it starts, cancels, answers
 * and follows the jobs running here (`running-jobs.ts`), holds their leases (`leases.ts`) and reads a job no
 * instance holds (`lapsed-jobs.ts`).
 *
 * @module
 */
import type { CallSink } from "../core/call/call-sink.ts";
import type { TokenCodec } from "../codec/token.ts";
import type { Runtime } from "../core/instance/runtime.ts";
// The engine's own parts before its stores, in this order: the default bundle gzips smallest so (bench/bundle.ts).
import { answerInEntry } from "./entry-answers.ts";
import { createTokens, type Tokens, type TokensOptions } from "../core/instance/tokens.ts";
import { readLapsed, type Redelivery } from "./lapsed-jobs.ts";
import { holdLease, leaseHeld, type Leases } from "./leases.ts";
import type { SharedStore } from "../store/shared-store.ts";
import type { JournalStore } from "./journal-store.ts";
import { RunningJobs, type StartOptions } from "./running-jobs.ts";
import { type JobStores, type JobStoresOptions, openJobStores } from "./job-stores.ts";
import { type EndListener, type FinalListener, JobEnds } from "./job-ends.ts";
import { base64urlEncode } from "../codec/base64url.ts";
import { hasEnded, type ResultStore, type StoredResult } from "./result-store.ts";
import type { DeferredWork } from "../core/call/tool-promise.ts";
import type { WorkQueue } from "./work-queue.ts";
import { outOfReach } from "./queue-unavailable.ts";
import type { Suspension } from "./suspension.ts";
import type { JobSignals } from "./signals.ts";
import type { PromiseOutcome } from "../core/call/outcome.ts";
import type { ToolCall } from "../core/call/middleware.ts";
import { ProtocolError } from "../errors/error.ts";

/**
 * The engine a server's runtime holds, as this layer made it: the core keeps it typed by its contract (`JobEngine`,
 * `src/core/long-running/job-engine.ts`) and calls none of its work.
 *
 * @param runtime The server's runtime.
 * @returns Its engine.
 * @throws {ProtocolError} `invalid_params` on a server without long-running support.
 */
export function continuationsOf(runtime: Runtime): Continuations {
  const engine = runtime.continuations;
  // Checked, not cast: a runtime's engine is this layer's (long-running-support.ts made it), or there is none.
  if (engine instanceof Continuations) return engine;
  throw new ProtocolError("invalid_params", "this server has no long-running support (createServer({ longRunning }))");
}

/**
 * A new job's id: its result-store entry, and the id a queue keeps it by.
 *
 * @returns 16 random bytes, base64url.
 */
export function newJobId(): string {
  return base64urlEncode(crypto.getRandomValues(new Uint8Array(16)));
}

/** Options of {@link Continuations}: the tokens' (codec and lifetimes), plus the stores'. */
export interface ContinuationsOptions extends TokensOptions, JobStoresOptions {}

/** The server's tokens, defaults and deferred work. */
export class Continuations implements Tokens, JobStores {
  /** Signs and checks every token. */
  declare readonly codec: TokenCodec;
  /** Where deferred results wait. */
  declare readonly results: ResultStore;
  /** The shared store beneath the results, where the server's other features keep their records (`storeSpace()`). */
  declare readonly store: SharedStore;
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
  /** How long a job's lease lasts unless its holder renews it (every third of it), with a shared store. */
  declare readonly leaseMs: number | undefined;
  /** The queue is the one the server's instances keep in their shared store: each instance takes its jobs itself. */
  declare readonly ownsQueue: boolean;
  /** A taker of the queue runs in this process (the server's own, or a worker's). */
  #taking = false;
  readonly #jobs: RunningJobs;
  /** The features that hear of jobs' ends. */
  readonly #ends = new JobEnds();
  /** What signals jobs, once `signals()` gave it. */
  #signals: JobSignals | undefined;

  /**
   * Creates the machinery; the server does this once, from its options.
   *
   * @param options The secret, sealing, bounds, defaults and store.
   * @throws {TypeError} When a secret is shorter than 32 bytes.
   */
  constructor(options: ContinuationsOptions = {}) {
    Object.assign(this, createTokens(options)); // its codec, lifetimes and retry_after_ms
    Object.assign(this, openJobStores(options, this.retryAfterMs, (results) => this.#ends.seeing(results)));
    this.#jobs = new RunningJobs(this);
  }

  /**
   * Registers a feature that hears of the id a caller holds of a job whose tool names an end event
   * (`.longRunning({ endEvent })`), to raise it at the job's end (`src/events/task-ends.ts`). Several features may
   * listen; one key registers once.
   *
   * @param key The feature's key.
   * @param listener Hears each id handed over.
   * @returns Whether it was registered (`false`: the key was, already).
   */
  onEnd(key: symbol, listener: EndListener): boolean {
    return this.#ends.onEnd(key, listener);
  }

  /**
   * Registers a feature that sees each job's final entry as the result store takes it ({@link FinalListener}): task
   * events raise a tool's end event from it (`src/events/task-ends.ts`). One key registers once.
   *
   * @param key The feature's key.
   * @param listener Sees each final entry written.
   * @returns Whether it was registered (`false`: the key was, already).
   */
  onFinal(key: symbol, listener: FinalListener): boolean {
    return this.#ends.onFinal(key, listener);
  }

  /**
   * Gives the engine what signals jobs (`signals()`, once per server): work's `waitFor()` and `signalUrl()` use it.
   *
   * @param signals The server's job signals.
   * @throws {TypeError} When the server has them already.
   */
  useSignals(signals: JobSignals): void {
    if (this.#signals !== undefined) throw new TypeError("the server's job signals are given once");
    this.#signals = signals;
  }

  /** What signals jobs and gives work its `waitFor()`, where the server has `signals()` (`signals.ts`). */
  get signals(): JobSignals | undefined {
    return this.#signals;
  }

  /**
   * Claims this process's taking of the server's queue, once: a worker (`runWorker()`) claims it as it starts, and the
   * server's own taker of a queue kept in its store starts only on the first claim (`jobs-here.ts`).
   *
   * @returns Whether this was the first claim.
   */
  claimTaking(): boolean {
    if (this.#taking) return false;
    return this.#taking = true;
  }

  /** Whether a feature hears of jobs' ends (a tool naming an end event needs one). */
  get hearsEnds(): boolean {
    return this.#ends.heard;
  }

  /**
   * Hands the id a caller holds of a job to every feature listening ({@link onEnd}), one after another.
   *
   * @param outcome The call's promise outcome.
   * @param id The id its caller holds (the token, or the task's id).
   * @param call The call, when the id is handed over as it is answered.
   */
  announce(outcome: PromiseOutcome, id: string, call?: ToolCall): Promise<void> {
    return this.#ends.announce(outcome, id, call);
  }

  /** How many deferred jobs are running in this process. */
  get running(): number {
    return this.#jobs.size;
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
    const id = options.id ?? newJobId();
    // A job taken from a queue runs only while its entry has not ended: first writer wins.
    const at = this.codec.now();
    if (!await this.results.set(id, { status: "working", at }, ttlMs)) return id;
    if (this.leaseMs !== undefined) await holdLease(this as Leases, id);
    void this.#jobs.launch(id, work, ttlMs, options, at);
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
    return this.#jobs.launch(id, work, ttlMs, options, this.codec.now(), true);
  }

  /**
   * Follows a job running in this process, or on a worker when the queue carries progress: its progress
   * (and here its logs) go to `sink` until the returned function is called (a stream that pushes the
   * job's updates, MCP-lite spec v0.042 §5.3).
   *
   * @param id The entry id.
   * @param sink Where the progress and logs go.
   * @returns Stops following (nothing to stop when no such job runs here and the queue cannot follow it); given the
   *   job's final entry, first reports its last progress when above what went to `sink` (the queue may carry it later).
   */
  watch(id: string, sink: CallSink): (end?: Pick<StoredResult, "progress">) => void {
    // A job on a worker: the queue carries its progress and logs, when it can. Its work reports progress again when
    // it runs again (after a wake-up, a restart): a report not above the highest is dropped (MCP 2025-11-25,
    // Progress: "The progress value MUST increase with each notification").
    let top = -Infinity;
    const rising: CallSink = {
      progress: (progress, total, message) => progress > top && sink.progress?.(top = progress, total, message),
      log: sink.log?.bind(sink),
    };
    const job = this.#jobs.get(id);
    // A run in this process is followed here too (what it reported so far comes at once), and its lines from here
    // only; it ends at a durable sleep, and the queue carries the later runs', here or on another worker.
    const queued = this.queue?.watch?.(
      id,
      (u) =>
        "log" in u
          ? (!job || this.#jobs.get(id) !== job) && rising.log?.(u.log.level, u.log.data, u.log.logger)
          : rising.progress!(u.progress, u.total, u.message),
    );
    const here = job?.watch(rising);
    return (end) => {
      const [progress, total, message] = end?.progress ?? [];
      if (progress !== undefined) rising.progress!(progress, total ?? undefined, message ?? undefined);
      here?.(), queued?.();
    };
  }

  /**
   * Tells when a job running in this process has written its final entry, for whoever waits on it
   * (an MCP call held open for a client without tasks).
   *
   * @param id The entry id.
   * @returns When the job's final entry is written, or `undefined` when no such job runs here.
   */
  settled(id: string): Promise<void> | undefined {
    return this.#jobs.settled(id);
  }

  /**
   * Reads a job's entry as redeem and `tasks/get` answer it. With a shared store, a job still running
   * whose lease has stayed missing for a whole lease (its instance stopped) is started again here when
   * `again` allows another start, else ends here as failed: first writer wins, so a result written
   * meanwhile stands instead, and every instance answers the same. An entry the store lost (it came
   * back empty) whose job no instance holds for a whole lease ends as lost, likewise (`lapsed-jobs.ts`). With a
   * queue, only a job run in process (inline work, `inProcess`) is read so.
   *
   * @param id The entry id.
   * @param ttlMs How long a failure written here (or a restarted job's entry) lasts.
   * @param again How to deliver the job again (a tool's `retry`); without it, a stopped job fails.
   * @param inProcess The job is inline work a server with a queue runs in process (its token says so).
   * @returns The entry, or `undefined` when the store does not hold it and has no lease (one process).
   * @throws {ProtocolError} `unavailable` while the store is out of reach.
   */
  async read(id: string, ttlMs: number, again?: Redelivery, inProcess?: 1): Promise<StoredResult | undefined> {
    const entry = await this.results.get(id);
    // With a queue, the queue delivers the job of a worker that stopped to another: no lease to watch, except for
    // inline work, which runs in process (holding a lease) and never meets the queue.
    if (
      this.leaseMs === undefined || (this.queue !== undefined && !inProcess) || (entry !== undefined && hasEnded(entry))
    ) {
      return entry;
    }
    // A shared store that restarted empty lost the entry of a job still running (its heartbeat writes
    // it again) or finished (its final write is being retried): while the lease says so, not done yet.
    if (this.#jobs.get(id) !== undefined || await leaseHeld(this as Leases, id)) return entry ?? { status: "working" };
    return await readLapsed(this as Leases, this.#jobs, id, entry, ttlMs, again);
  }

  /**
   * Cancels a job and its children (`invoke()`): aborts its work if it runs here and records it as cancelled.
   * Idempotent: a job that ended already keeps its entry (first writer wins, on any instance).
   *
   * @param id The entry id.
   * @param ttlMs How long the cancelled entry lasts.
   * @returns Whether the cancellation won: the job was still running.
   */
  async cancel(id: string, ttlMs: number): Promise<boolean> {
    const entry = await this.results.get(id);
    const job = this.#jobs.get(id);
    this.#jobs.delete(id);
    job?.controller.abort(new Error("the promise was cancelled"));
    try {
      if (entry === undefined || hasEnded(entry)) return false;
      const cancelled: StoredResult = { status: "cancelled", at: this.codec.now() };
      if (job !== undefined) return await job.settle(cancelled); // after any write the job made
      // Out of its queue first, where the queue can (`WorkQueue.remove`): never delivered, and its worker reads nothing.
      await this.queue?.remove?.(id).catch((cause) => {
        throw outOfReach(cause, this.retryAfterMs);
      });
      return await this.results.set(id, cancelled, ttlMs);
    } finally {
      // Then its children (`invoke()`): their ids are in its journal, each journaled before the child starts. A parent
      // that meets a child cancelled finds itself ended first.
      for (const { name, value } of await this.journals.load(id)) {
        if (name.startsWith("~child:")) await this.cancel(value as string, ttlMs);
      }
    }
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
    const job = this.#jobs.get(id);
    // A job parked here on its question (in process) takes the answer; a queued one asks through its entry.
    if (job !== undefined && Object.keys(responses).some((key) => Object.hasOwn(job.questions, key))) {
      return (await job.deliver(responses), true);
    }
    if (!await answerInEntry(this, id, responses, ttlMs)) return false;
    // A queued job asleep on its question (`WorkRun.ask`) runs now, and reads the answer from its entry. Awaited: a
    // wake the queue refused fails this delivery, which the client sends again, rather than leave the job asleep.
    await this.queue?.wake?.(id);
    return true;
  }
}
