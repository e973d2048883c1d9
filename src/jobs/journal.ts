/**
 * The journal of declared work (`work.step()`, `work.sleep()`): each completed step's JSON value, and each sleep's
 * wake time, kept as an ended entry of the job's result store under `step:<job>:<name>` (first writer wins), so a
 * later start of the same job (a retry, a worker killed, a deploy) reads them instead of running them again. Only
 * the `ResultStore` contract is used: every store gets it. Why: docs/concepts/long-running.md, "Declared work and
 * its steps".
 *
 * @module
 */
import type { ResultStore, StoredResult } from "./result-store.ts";
import { sleep } from "../internal/sleep.ts";
import { DurableSleep } from "./durable-sleep.ts";
import { isUnavailable } from "./guarded-store.ts";
import { utf8Encoder } from "../internal/utf8.ts";

/** The most steps (and sleeps) one run of a job may take. */
export const MAX_STEPS = 1_000;
/** The most bytes a step's value may take, as JSON. */
export const MAX_STEP_BYTES = 256 * 1024;

/** Where a job's journal lives, and what this start of it knows. */
export interface JournalOptions {
  /** The job's id (its result-store entry). */
  readonly id: string;
  /** The store holding the job's entry. */
  readonly store: ResultStore;
  /** When the job's entry expires, ms since the epoch: the journal expires with it. */
  readonly expiresAt: number;
  /** The clock, ms since the epoch. */
  readonly now: () => number;
  /** No earlier start of this job can have recorded anything: steps run without a read first. */
  readonly fresh: boolean;
  /** Sleeps hand the job back to its queue (`DurableSleep`) instead of waiting here. */
  readonly queued: boolean;
  /** Hears each step this start runs (not one its journal answers): the job's log (`step-log.ts`). */
  readonly observe?: StepObserver;
}

/** Wraps a step's run, given its name: what hears its start and its end. */
export type StepObserver = <T>(name: string, run: (key: string) => T | Promise<T>) => (key: string) => Promise<T>;

/**
 * What a step or a sleep throws in process when the store is out of reach as it reads or records the journal: the
 * start ends with nothing written, as one whose process died, and its lease lapses; the job then starts again
 * (`retry`: a step whose value was lost runs again, with the same key) or ends stopped. On a queue the job goes back
 * to its queue instead ({@link DurableSleep}).
 */
export class JournalOutage extends Error {
  /**
   * Makes the outage.
   *
   * @param cause The store's error.
   */
  constructor(cause: unknown) {
    super("journal out of reach", { cause });
  }
}

/** One start's view of a job's journal. */
export class Journal {
  readonly #options: JournalOptions;
  readonly #names = new Set<string>();
  #sleeps = 0;

  /**
   * Opens the journal.
   *
   * @param options The job, its store and what this start knows.
   */
  constructor(options: JournalOptions) {
    this.#options = options;
  }

  /**
   * Runs a step once per job: its recorded value when an earlier start completed it, else `run`'s, recorded
   * (first writer wins: two starts racing both return the first value stored).
   *
   * @param name The step's name, unique within the job.
   * @param run The step; its key (`<job>:<name>`) is stable across starts, for idempotent APIs.
   * @returns The step's value, as JSON gives it back.
   * @throws {TypeError} For a name used twice in one run, empty, too long or starting with `~`.
   * @throws {RangeError} Past {@link MAX_STEPS} steps, or for a value over {@link MAX_STEP_BYTES}.
   */
  async step<T>(name: string, run: (key: string) => T | Promise<T>): Promise<T> {
    if (!(typeof name === "string" && /^[^~].{0,199}$/s.test(name))) {
      throw new TypeError("work.step(): a name is 1–200 characters, not starting with ~");
    }
    this.#claim(name);
    const key = this.#key(name);
    if (!this.#options.fresh) {
      const recorded = valueOf(await this.#read(key));
      if (recorded !== undefined) return recorded.v as T;
    }
    const value = await (this.#options.observe?.(name, run) ?? run)(`${this.#options.id}:${name}`);
    return await this.#record(key, name, value) as T;
  }

  /**
   * Sleeps durably: the wake time is journaled, so a later start sleeps only what is left. On a queued server the
   * job goes back to its queue until then (this rejects with {@link DurableSleep}); in process, a timer.
   *
   * @param ms How long to sleep.
   * @param signal Aborts the sleep in process.
   * @param name Its name in the journal (default: the run's next sleep's).
   * @returns When the time has passed.
   * @throws {RangeError} For `ms` out of 0–2^31 − 1, or a wake time past the job's expiry.
   */
  async sleep(ms: number, signal: AbortSignal, name = `~sleep:${++this.#sleeps}`): Promise<void> {
    if (!(ms >= 0 && ms < 2 ** 31)) throw new RangeError("work.sleep(): ms is from 0 to 2^31 - 1");
    this.#claim(name);
    const key = this.#key(name);
    const { now, fresh, queued } = this.#options;
    const recorded = fresh ? undefined : valueOf(await this.#read(key));
    if (recorded === undefined && now() + ms >= this.#options.expiresAt) {
      // It would wake after its job's entry (and token) expired: nothing could collect its result.
      throw new RangeError("work.sleep(): the job expires first; give the tool a longer .longRunning({ ttlMs })");
    }
    const until = recorded === undefined ? await this.#record(key, name, now() + ms) as number : recorded.v as number;
    const left = until - now();
    if (left <= 0) return;
    if (queued) throw new DurableSleep(until);
    await sleep(left, signal);
  }

  #claim(name: string): void {
    if (this.#names.has(name)) throw new TypeError(`work.step(): "${name}" is used twice in one job`);
    if (this.#names.size >= MAX_STEPS) throw new RangeError(`a job takes at most ${MAX_STEPS} steps`);
    this.#names.add(name);
  }

  #read(key: string): Promise<StoredResult | undefined> {
    return this.#outage(() => this.#options.store.get(key));
  }

  /**
   * A store operation; the store out of reach ends this start, never the job: on a queued job it hands the job back
   * to its queue for the wait the store names, as a sleep (no start counted), and a later delivery resumes from the
   * journal; in process it ends the start as a death would ({@link JournalOutage}).
   */
  async #outage<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      if (!this.#options.queued) throw new JournalOutage(error);
      const retryAfterMs = (error.data as { retryAfterMs?: number } | undefined)?.retryAfterMs ?? 1_000;
      throw new DurableSleep(this.#options.now() + retryAfterMs);
    }
  }

  #key(name: string): string {
    return `step:${this.#options.id}:${name}`;
  }

  /** Records a value; the one recorded first when another start won. */
  async #record(key: string, name: string, value: unknown): Promise<unknown> {
    const json = value === undefined ? undefined : JSON.stringify(value);
    if (json !== undefined && utf8Encoder.encode(json).length > MAX_STEP_BYTES) {
      throw new RangeError(`work.step(): "${name}" is over ${MAX_STEP_BYTES} bytes of JSON`);
    }
    const v = json === undefined ? undefined : JSON.parse(json);
    const { store, expiresAt, now } = this.#options;
    const entry: StoredResult = {
      status: "completed",
      result: { content: [], structuredContent: v === undefined ? {} : { v } },
      at: now(),
    };
    if (await this.#outage(() => store.set(key, entry, Math.max(1, expiresAt - now())))) return v;
    const winner = valueOf(await this.#read(key));
    return winner === undefined ? v : winner.v;
  }
}

/** A journal entry's value, wrapped (`{ v }`; `{}` for `undefined`); `undefined` when there is none. */
function valueOf(entry: StoredResult | undefined): { v?: unknown } | undefined {
  if (entry?.status !== "completed") return undefined;
  return entry.result.structuredContent as { v?: unknown } | undefined ?? {};
}
