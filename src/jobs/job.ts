/**
 * One piece of deferred work (`ctx.defer()`) running in this process: its abort controller, the questions it waits
 * on, and its state's writes to the result store, in order. A question asked inside the work parks the job
 * (`input_required`, shown on `tasks/get`); answers arrive through {@link Job.deliver} here, or wait in the entry's
 * `answers` when delivered on another instance, which this one polls while parked (noticing cancellations made
 * elsewhere too); only answers of the right shape for their question count. A job still running when its entry
 * expires is aborted, and its state is never written past that. Why: docs/guides/many-instances.md.
 *
 * @module
 */
import { type CallSink, type InputRequest, isInputAnswer, type LogLevel } from "../core/call/call-sink.ts";
import { isUnavailable, untilReachable } from "./guarded-store.ts";
import type { ResultStore, StoredResult } from "./result-store.ts";
import { unrefTimer } from "../runtime/unref-timer.ts";
import { MAX_TIMER_MS } from "../internal/timer-ms.ts";

/** Why a job's signal aborts when its entry's time is up (its token expired with it). */
const EXPIRED_MESSAGE = "the job expired";

interface Waiter {
  readonly request: InputRequest;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** Where a job keeps its state, and how it learns of answers delivered elsewhere. */
export interface JobOptions {
  /** The store holding the job's entry. */
  readonly store: ResultStore;
  /** How long its entry lasts, in ms. */
  readonly ttlMs: number;
  /** When its entry expires, in ms since the epoch. */
  readonly expiresAt: number;
  /** The clock, in ms since the epoch. */
  readonly now: () => number;
  /** How often a parked job polls a shared store for answers from other instances; `undefined`: never. */
  readonly pollMs: number | undefined;
  /** Receives store errors, for logs. */
  readonly onError?: (error: unknown) => void;
}

/** How many of the logs the work writes before anyone follows it are kept for the first follower. */
const EARLY_LOGS = 16;

/** A running job: the sink its work asks through, and the writer of its entry. */
export class Job implements CallSink {
  /** The result-store id. */
  readonly id: string;
  /** Aborts the work (cancellation). */
  readonly controller: AbortController = new AbortController();
  readonly #options: JobOptions;
  readonly #waiting = new Map<string, Waiter>();
  #writes: Promise<void> = Promise.resolve();
  #settled = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #expiry: ReturnType<typeof setTimeout> | undefined;
  readonly #expiresAt: number;
  readonly #watchers = new Set<CallSink>();
  /** The work's last progress report: progress, total, message. */
  lastProgress: [number, number | undefined, string | undefined] | undefined;
  /** The logs the work wrote before anyone followed it (its first lines, written before the call is answered). */
  #early: [LogLevel, unknown, string | undefined][] | undefined = [];
  /** Why the store refused the final entry: over its bound on one entry (a `RangeError`), if it did. */
  refusal: RangeError | undefined;

  /**
   * Creates the job of an entry already recorded as working.
   *
   * @param id The result-store id.
   * @param options The store, TTL, clock and polling.
   */
  constructor(id: string, options: JobOptions) {
    this.id = id;
    this.#options = options;
    this.#expiresAt = options.expiresAt;
    this.controller.signal.addEventListener("abort", () => this.#abandon(this.controller.signal.reason), {
      once: true,
    });
    this.#expire();
  }

  /**
   * Hands the work's progress and logs to a stream that follows the job (MCP-lite spec v0.042 §5.3,
   * "Alternative: use CallToolStream for server-pushed updates"; a held MCP call). What the work reported
   * before then comes at once: the last progress so far, and to the first follower the logs written before it
   * came (the work starts before the call that started it is answered, so a follower always comes late).
   *
   * @param sink Where they go.
   * @returns Stops the watch.
   */
  watch(sink: CallSink): () => void {
    this.#watchers.add(sink);
    for (const log of this.#early ?? []) sink.log?.(...log);
    this.#early = undefined;
    if (this.lastProgress !== undefined) sink.progress?.(...this.lastProgress);
    return () => this.#watchers.delete(sink);
  }

  /**
   * Reports the work's progress to the streams that follow it (none: it goes nowhere).
   *
   * @param progress The progress so far.
   * @param total The total, if known.
   * @param message A message.
   */
  progress(progress: number, total: number | undefined, message: string | undefined): void {
    this.lastProgress = [progress, total, message];
    for (const watcher of this.#watchers) watcher.progress?.(progress, total, message);
  }

  /**
   * Sends the work's log messages to the streams that follow it.
   *
   * @param level The severity.
   * @param data The message.
   * @param logger The logger name.
   */
  log(level: LogLevel, data: unknown, logger: string | undefined): void {
    if (this.#early !== undefined && this.#early.length < EARLY_LOGS) this.#early.push([level, data, logger]);
    for (const watcher of this.#watchers) watcher.log?.(level, data, logger);
  }

  /** The questions the work waits on, by key. */
  get questions(): Record<string, InputRequest> {
    const questions: Record<string, InputRequest> = {};
    for (const [key, waiter] of this.#waiting) questions[key] = waiter.request;
    return questions;
  }

  /**
   * Parks the work on a question until it is answered: the entry lists it as `input_required`.
   *
   * @param key The question's key, unique among the questions outstanding.
   * @param request The client method and params.
   * @returns The answer.
   */
  input(key: string, request: InputRequest): Promise<unknown> {
    const signal = this.controller.signal;
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.#waiting.has(key) || this.#settled) {
      return Promise.reject(
        new TypeError(`input "${key}" cannot be asked: it is outstanding already, or the job ended`),
      );
    }
    return new Promise((resolve, reject) => {
      this.#waiting.set(key, { request, resolve, reject });
      void this.#publish();
      this.#poll();
    });
  }

  /**
   * Delivers answers: each one for an outstanding question, of the right shape, resumes the work once
   * the entry shows what is still outstanding. Others are ignored.
   *
   * @param responses The answers, by key.
   * @returns How many answers were taken.
   */
  async deliver(responses: Readonly<Record<string, unknown>>): Promise<number> {
    const taken: [Waiter, unknown][] = [];
    for (const [key, waiter] of this.#waiting) {
      if (Object.hasOwn(responses, key) && isInputAnswer(waiter.request.method, responses[key])) {
        taken.push([waiter, responses[key]]);
        this.#waiting.delete(key);
      }
    }
    if (taken.length === 0) return 0;
    await this.#publish(); // the entry shows the remaining questions before the work moves on
    for (const [waiter, value] of taken) waiter.resolve(value);
    return taken.length;
  }

  /**
   * Writes the job's final entry, after any write before it; nothing is written after it.
   *
   * @param entry The final entry (completed, failed or cancelled).
   * @returns Whether it was written: `false` when the entry had ended already (first writer wins).
   */
  settle(entry: StoredResult): Promise<boolean> {
    if (this.#settled) return this.#writes.then(() => false);
    this.#settled = true;
    this.#stopPolling();
    return this.#write(entry);
  }

  /**
   * Writes the job's state again (working, or the questions it waits on): for a store that lost it
   * (restarted empty). Nothing is written once the job has settled, nor once its entry's time is up: the
   * store dropped it for having expired, not lost it, and the job is aborted instead.
   *
   * @returns When written.
   */
  refresh(): Promise<unknown> {
    return this.#publish();
  }

  #publish(): Promise<unknown> {
    if (this.#settled) return this.#writes;
    return this.#write(() =>
      this.#waiting.size > 0
        ? { status: "input_required", requests: this.questions, at: this.#options.now() }
        : { status: "working", at: this.#options.now() }
    );
  }

  /**
   * Chains a write after the previous ones; a function is read when its turn comes. A write refused
   * because the entry ended elsewhere (a cancellation on another instance) aborts the work.
   *
   * @returns Whether it was written.
   */
  #write(entry: StoredResult | (() => StoredResult)): Promise<boolean> {
    const { store, onError, now, ttlMs } = this.#options;
    const final = typeof entry !== "function";
    const written = this.#writes.then(async () => {
      if (!final && this.#settled) return false;
      // The state lasts as long as the entry was given (never more than `ttlMs`): it does not outlive the token.
      const leftMs = this.#expiresAt - now();
      if (!final && leftMs <= 0) {
        this.controller.abort(new Error(EXPIRED_MESSAGE));
        return false;
      }
      try {
        // A final entry is written again through an outage, until it expires: a finished job's result is kept in memory.
        const done = final
          ? await untilReachable(() => store.set(this.id, entry, ttlMs), this.#expiresAt, now)
          : await store.set(this.id, entry(), leftMs);
        if (!done && !final) this.controller.abort(new Error("the task was cancelled"));
        return done;
      } catch (error) {
        if (final && error instanceof RangeError) this.refusal = error;
        if (!isUnavailable(error)) onError?.(error); // an outage reaches onError once, from the store
        return false;
      }
    });
    this.#writes = written.then(() => {});
    return written;
  }

  #poll(): void {
    const pollMs = this.#options.pollMs;
    if (pollMs === undefined || this.#timer !== undefined) return;
    const tick = async () => {
      this.#timer = undefined;
      if (this.#waiting.size === 0 || this.#settled) return;
      try {
        const entry = await this.#options.store.get(this.id);
        if (entry?.status === "cancelled") {
          this.controller.abort(new Error("the task was cancelled"));
          return;
        }
        const answers = (entry as { answers?: Readonly<Record<string, unknown>> } | undefined)?.answers;
        if (answers !== undefined) await this.deliver(answers);
      } catch (error) {
        this.#options.onError?.(error);
      }
      if (this.#waiting.size > 0 && !this.#settled && this.#timer === undefined) {
        this.#timer = unrefTimer(setTimeout(tick, pollMs));
      }
    };
    this.#timer = unrefTimer(setTimeout(tick, pollMs));
  }

  #stopPolling(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    clearTimeout(this.#expiry);
  }

  /** Arms the abort of the job at its entry's expiry (a timer that keeps no process alive). */
  #expire(): void {
    const ms = Math.min(Math.max(0, this.#expiresAt - this.#options.now()), MAX_TIMER_MS);
    this.#expiry = unrefTimer(setTimeout(() => this.controller.abort(new Error(EXPIRED_MESSAGE)), ms));
  }

  #abandon(reason: unknown): void {
    this.#stopPolling();
    for (const waiter of this.#waiting.values()) waiter.reject(reason);
    this.#waiting.clear();
  }
}
