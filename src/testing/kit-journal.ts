/**
 * The journal store of one `durableRun()`: a `Map` of one job's entries (first writer wins), which kills the run at
 * the crash point it is given as a `kill -9` would, once: before the step's entry is written (its effect done, its
 * value lost) or right after. The engine meets a store out of reach there and ends the run, its work left pending.
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";
import type { JournalEntry, JournalStore } from "../jobs/journal-store.ts";

/** Where a run dies: right after a step (or a sleep, `~sleep:1`) of that name ran. */
export interface CrashPoint {
  /** The step's name, as the work gives it to `work.step()`; a sleep's journal name (`~sleep:1`, the first). */
  readonly step: string;
  /**
   * Whether its value reached the journal before the process died (default `true`): then a later start reads it
   * back; `false`, the step ran but nothing of it was kept, and the next start runs it again.
   */
  readonly journaled?: boolean;
}

/** A job's journal in memory, with a crash point that fires once. */
export class KitJournal implements JournalStore {
  readonly #entries = new Map<string, JournalEntry>();
  #crash: CrashPoint | undefined;
  /** The crash point that fired in the current start, if one did: the kit ends that start as a death. */
  crashed: CrashPoint | undefined;

  /**
   * Makes the journal.
   *
   * @param crash Where the run dies, once.
   * @param recorded What an earlier run of the job journaled, if any.
   */
  constructor(crash: CrashPoint | undefined, recorded: readonly JournalEntry[] = []) {
    this.#crash = crash;
    for (const entry of recorded) this.#entries.set(entry.name, entry);
  }

  /** The entries, in the run's order (entries outside it, such as a retry's waits, after). */
  get entries(): JournalEntry[] {
    const place = (entry: JournalEntry) => entry.position || Number.MAX_SAFE_INTEGER;
    return [...this.#entries.values()].sort((a, b) => place(a) - place(b) || a.at - b.at);
  }

  load(): Promise<readonly JournalEntry[]> {
    return Promise.resolve([...this.#entries.values()]);
  }

  append(_job: string, entry: JournalEntry): Promise<JournalEntry> {
    const crash = this.#crash;
    if (crash?.step === entry.name) {
      this.#crash = undefined;
      this.crashed = crash;
      if (crash.journaled !== false) this.#entries.set(entry.name, entry);
      // What the engine meets when its store is out of reach: the run ends there, its work never hearing of it.
      return Promise.reject(new ProtocolError("unavailable", `durableRun(): crashed after "${entry.name}"`));
    }
    if (!this.#entries.has(entry.name)) this.#entries.set(entry.name, entry);
    return Promise.resolve(this.#entries.get(entry.name)!);
  }
}
