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
import { isUnavailable } from "./guarded-store.ts";
import { utf8Encoder } from "../internal/utf8.ts";
import { pending, Suspension } from "./suspension.ts";
import { stepJson } from "./step-json.ts";

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
  /** Sleeps hand the job back to its queue (the run suspends) instead of waiting here. */
  readonly queued: boolean;
}

/** One start's view of a job's journal. */
export class Journal {
  /** This run's suspension: a queued sleep, or the store out of reach, ends the run through it, never by a throw. */
  readonly suspension: Suspension = new Suspension();
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
   * @returns The step's value, as JSON gives it back; once the run suspended, a promise that never settles.
   * @throws {TypeError} For a name used twice in one run, empty, too long or starting with `~`, or a value with no
   *   JSON form.
   * @throws {RangeError} Past {@link MAX_STEPS} steps, or for a value over {@link MAX_STEP_BYTES}.
   */
  async step<T>(name: string, run: (key: string) => T | Promise<T>): Promise<T> {
    if (this.suspension.suspended) return pending(); // a branch of a suspended run: nothing more of it runs
    if (!(typeof name === "string" && /^[^~].{0,199}$/s.test(name))) {
      throw new TypeError("work.step(): a name is 1–200 characters, not starting with ~");
    }
    this.#claim(name);
    const key = this.#key(name);
    if (!this.#options.fresh) {
      const recorded = valueOf(await this.#read(key));
      if (recorded !== undefined) return recorded.v as T;
    }
    const value = await run(`${this.#options.id}:${name}`);
    return await this.#record(key, name, value) as T;
  }

  /**
   * Sleeps durably: the wake time is journaled, so a later start sleeps only what is left. On a queued server the
   * run suspends, and the job goes back to its queue until then (this never settles: the code after it runs in a
   * later delivery); in process, a timer.
   *
   * @param ms How long to sleep.
   * @param signal Aborts the sleep in process.
   * @param name Its name in the journal (default: the run's next sleep's).
   * @returns When the time has passed.
   * @throws {RangeError} For `ms` out of 0–2^31 − 1, or a wake time past the job's expiry.
   */
  async sleep(ms: number, signal: AbortSignal, name = `~sleep:${++this.#sleeps}`): Promise<void> {
    if (!(ms >= 0 && ms < 2 ** 31)) throw new RangeError("work.sleep(): ms is from 0 to 2^31 - 1");
    if (this.suspension.suspended) return pending();
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
    if (queued) return this.suspension.suspend(until);
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
   * A store operation; the store out of reach suspends this start, never failing the job (the store's error went to
   * `onError` through its guard): on a queued job the job goes back to its queue for the wait the store names, as a
   * sleep (no start counted), and a later delivery resumes from the journal; in process the start ends as a death
   * would (its lease lapses). The work never sees it: its promise stays pending.
   */
  async #outage<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      if (!this.#options.queued) return this.suspension.suspend(undefined);
      const retryAfterMs = (error.data as { retryAfterMs?: number } | undefined)?.retryAfterMs ?? 1_000;
      return this.suspension.suspend(this.#options.now() + retryAfterMs);
    }
  }

  #key(name: string): string {
    return `step:${this.#options.id}:${name}`;
  }

  /** Records a value; the one recorded first when another start won. */
  async #record(key: string, name: string, value: unknown): Promise<unknown> {
    if (this.suspension.suspended) return pending(); // its run ended meanwhile: a later one records it
    const json = stepJson(name, value);
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
