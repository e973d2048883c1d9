/**
 * The journal of declared work (`work.step()`, `work.sleep()`): each completed step's JSON value, and each sleep's
 * wake time, appended to the job's journal in its `JournalStore` (first writer wins) with its place in the run, so a
 * later start of the same job (a retry, a worker killed, a deploy) reads them instead of running them again. A start
 * loads the journal once, at its first step or sleep, and refuses to go on where its steps or sleeps come in another
 * order than the journal's ({@link JournalMismatch}). Why: docs/concepts/long-running.md, "Declared work and its
 * steps".
 *
 * @module
 */
import type { JournalEntry, JournalStore } from "./journal-store.ts";
import { JournalMismatch } from "./journal-mismatch.ts";
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
  /** The store of the job's journal. */
  readonly store: JournalStore;
  /** When the job's entry expires, ms since the epoch: the journal expires with it. */
  readonly expiresAt: number;
  /** The clock, ms since the epoch. */
  readonly now: () => number;
  /** No earlier start of this job can have recorded anything: steps run without a read first. */
  readonly fresh: boolean;
  /** Sleeps hand the job back to its queue (the run suspends) instead of waiting here. */
  readonly queued: boolean;
  /** The start's suspension, shared by its journals (each retry opens a journal of its own); default: this journal's own. */
  readonly suspension?: Suspension;
  /** Hears each step this start runs (not one its journal answers): the job's log (`step-log.ts`). */
  readonly observe?: StepObserver;
}

/** Wraps a step's run, given its name: what hears its start and its end. */
export type StepObserver = <T>(name: string, run: (key: string) => T | Promise<T>) => (key: string) => Promise<T>;

/** One start's view of a job's journal. */
export class Journal {
  /** This run's suspension: a queued sleep, or the store out of reach, ends the run through it, never by a throw. */
  readonly suspension: Suspension;
  readonly #options: JournalOptions;
  readonly #names = new Set<string>();
  #sleeps = 0;
  /** The steps and sleeps this run took, in the order they began: the next one's place is one more. */
  #places = 0;
  /** The journal as this start loaded it (once, at its first step or sleep), by name and by place. */
  #loaded?: Promise<{ byName: Map<string, JournalEntry>; byPlace: Map<number, JournalEntry> }>;

  /**
   * Opens the journal.
   *
   * @param options The job, its store and what this start knows.
   */
  constructor(options: JournalOptions) {
    this.#options = options;
    this.suspension = options.suspension ?? new Suspension();
  }

  /**
   * Runs a step once per job: its recorded value when an earlier start completed it, else `run`'s, recorded
   * (first writer wins: two starts racing both return the first value stored).
   *
   * @param name The step's name, unique within the job (the work's are checked by its context: `~` is the engine's).
   * @param run The step; its key (`<job>:<name>`) is stable across starts, for idempotent APIs.
   * @returns The step's value, as JSON gives it back; once the run suspended, a promise that never settles.
   * @throws {TypeError} For a name used twice in one run, or a value with no JSON form.
   * @throws {RangeError} Past {@link MAX_STEPS} steps, or for a value over {@link MAX_STEP_BYTES}.
   */
  async step<T>(name: string, run: (key: string) => T | Promise<T>): Promise<T> {
    if (this.suspension.suspended) return pending(); // a branch of a suspended run: nothing more of it runs
    const place = this.#claim(name, true);
    const recorded = await this.#recorded(name, place);
    if (recorded !== undefined) return recorded.value as T;
    const value = await (this.#options.observe?.(name, run) ?? run)(`${this.#options.id}:${name}`);
    return await this.#record(name, place, value) as T;
  }

  /**
   * Sleeps durably: the wake time is journaled, so a later start sleeps only what is left. On a queued server the
   * run suspends, and the job goes back to its queue until then (this never settles: the code after it runs in a
   * later delivery); in process, a timer.
   *
   * @param ms How long to sleep.
   * @param signal Aborts the sleep in process.
   * @param name Its name in the journal, outside the run's order (a retry's wait, which only some starts take);
   *   default: the run's next sleep's, in the run's order.
   * @returns When the time has passed.
   * @throws {RangeError} For `ms` out of 0–2^31 − 1, or a wake time past the job's expiry.
   */
  async sleep(ms: number, signal: AbortSignal, name?: string): Promise<void> {
    if (!(ms >= 0 && ms < 2 ** 31)) throw new RangeError("work.sleep(): ms is from 0 to 2^31 - 1");
    if (this.suspension.suspended) return pending();
    const ordered = name === undefined; // a name given: a retry's wait, outside the order
    const place = this.#claim(name ??= `~sleep:${++this.#sleeps}`, ordered);
    const { now, queued } = this.#options;
    const recorded = await this.#recorded(name, place);
    if (recorded === undefined && now() + ms >= this.#options.expiresAt) {
      // It would wake after its job's entry (and token) expired: nothing could collect its result.
      throw new RangeError("work.sleep(): the job expires first; give the tool a longer .longRunning({ ttlMs })");
    }
    const until = recorded === undefined
      ? await this.#record(name, place, now() + ms) as number
      : recorded.value as number;
    const left = until - now();
    if (left <= 0) return;
    if (queued) return this.suspension.suspend(until);
    await sleep(left, signal);
  }

  /**
   * Whether this run takes the changed way at `name` (`work.patched()`, as Temporal's): not where the journal holds
   * another step at this place, recorded before the change (the old way, which takes no place); else the marker
   * `~patch:<name>` takes the place, recorded once, so every later start of the job answers the same.
   *
   * @param name The change's name.
   * @returns Whether to take the changed way; once the run suspended, a promise that never settles.
   * @throws {TypeError} For a name used twice in one run.
   */
  async patched(name: string): Promise<boolean> {
    if (this.suspension.suspended) return pending();
    const marker = `~patch:${name}`;
    if (!this.#options.fresh && !this.#names.has(marker)) {
      const { byName, byPlace } = await this.#load();
      const there = byPlace.get(this.#places + 1);
      if (!byName.has(marker) && there !== undefined) return false; // recorded before the change: the old way
    }
    const place = this.#claim(marker, true);
    if (await this.#recorded(marker, place) === undefined) await this.#record(marker, place, true);
    return true;
  }

  /**
   * A question's answer on a queued job (`work.elicit()`, `sample()`, `roots()`): journaled outside the run's order
   * once the client gave it, so every later start reads the same; until then read from `given` (the job's entry,
   * where an answer delivered while the job was back in its queue waits), and with none there this start suspends
   * until `until`, as a sleep does: the job goes back to its queue holding no worker, and an answer wakes it sooner.
   *
   * @param name Its name in the journal (`~input:<key>`).
   * @param given Reads the answer delivered meanwhile, if any (and otherwise publishes the question).
   * @param until When the wait ends at the latest, ms since the epoch.
   * @returns The answer; once the run suspended, a promise that never settles.
   */
  async answer(name: string, given: () => Promise<{ value: unknown } | undefined>, until: number): Promise<unknown> {
    if (this.suspension.suspended) return pending();
    const place = this.#claim(name, false);
    const recorded = await this.#recorded(name, place);
    if (recorded !== undefined) return recorded.value;
    const found = await this.#outage(given);
    if (found === undefined) return this.suspension.suspend(until);
    return await this.#record(name, place, found.value);
  }

  /**
   * Whether an earlier start recorded `name` (a step or a sleep), without taking the name for this run: how retries
   * count the failures journaled before (`retries.ts`).
   *
   * @param name The step's or the sleep's name.
   * @returns `false` on the job's first start.
   */
  async recorded(name: string): Promise<boolean> {
    return !this.#options.fresh && (await this.#load()).byName.has(name);
  }

  /** Takes a name for this run; its place in the run's order (0: outside it). */
  #claim(name: string, ordered: boolean): number {
    if (this.#names.has(name)) {
      throw new TypeError(`work.step(): "${name}" is used twice in one job: name each by what it works on`);
    }
    if (this.#names.size >= MAX_STEPS) throw new RangeError(`a job takes at most ${MAX_STEPS} steps`);
    this.#names.add(name);
    return ordered ? ++this.#places : 0;
  }

  /** What the journal recorded for a step at its place: `undefined` for nothing; refused where it differs. */
  async #recorded(name: string, place: number): Promise<JournalEntry | undefined> {
    if (this.#options.fresh) return undefined;
    const { byName, byPlace } = await this.#load();
    const there = place > 0 ? byPlace.get(place) : undefined, entry = byName.get(name);
    // A step the journal recorded is its own wherever it comes (branches of a `Promise.all` reach theirs in any
    // order); one it did not record, or a sleep (known by its place), must not take the place of another.
    if (there !== undefined && there.name !== name && (entry === undefined || name.startsWith("~sleep"))) {
      throw new JournalMismatch(this.#options.id, { name, position: place }, there);
    }
    return this.#inOrder(entry, place);
  }

  /** The journal as this start loaded it: once, at its first step or sleep. */
  #load(): Promise<{ byName: Map<string, JournalEntry>; byPlace: Map<number, JournalEntry> }> {
    return this.#loaded ??= this.#outage(() => this.#options.store.load(this.#options.id)).then((entries) => ({
      byName: new Map(entries.map((entry) => [entry.name, entry])),
      byPlace: new Map(entries.filter((entry) => entry.position > 0).map((entry) => [entry.position, entry])),
    }));
  }

  /** The entry recorded for a step, refused when the journal holds it at another place of the run's order. */
  #inOrder(entry: JournalEntry | undefined, place: number): JournalEntry | undefined {
    if (
      entry === undefined || place === 0 || entry.position === 0 || entry.position === place ||
      !entry.name.startsWith("~sleep")
    ) return entry;
    throw new JournalMismatch(this.#options.id, { name: entry.name, position: place }, entry);
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

  /** Records a value; the one recorded first when another start won. */
  async #record(name: string, place: number, value: unknown): Promise<unknown> {
    if (this.suspension.suspended) return pending(); // its run ended meanwhile: a later one records it
    const json = stepJson(name, value);
    if (json !== undefined && utf8Encoder.encode(json).length > MAX_STEP_BYTES) {
      throw new RangeError(`work.step(): "${name}" is over ${MAX_STEP_BYTES} bytes of JSON`);
    }
    const v = json === undefined ? undefined : JSON.parse(json);
    const { store, expiresAt, now, id } = this.#options;
    const entry: JournalEntry = { name, position: place, ...v === undefined ? {} : { value: v }, at: now() };
    // Another start that recorded it first (two starts racing) wins: its value, where it took it at the same place.
    const kept = await this.#outage(() => store.append(id, entry, Math.max(1, expiresAt - now())));
    return kept === entry ? v : this.#inOrder(kept, place)!.value;
  }
}
