/**
 * The journal store of one `durableRun()`: a `Map` of entries per job (the run's, and its children's: `invoke()`;
 * first writer wins), which kills the run's job at the crash point it is given as a `kill -9` would, once: before the
 * step's entry is written (its effect done, its value lost) or right after. The engine meets a store out of reach
 * there and ends the run, its work left pending.
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";
import type { JournalEntry, JournalStore } from "../jobs/journal-store.ts";

/** Where a run dies: right after a step (or a sleep, `~sleep:1`; a child, `invoke()`) of that name ran. */
export interface CrashPoint {
  /**
   * The step's name, as the work gives it to `work.step()`; a sleep's journal name (`~sleep:1`, the first); a child's
   * name, as the work gives it to `invoke()` (once the child ended).
   */
  readonly step: string;
  /**
   * Whether its value reached the journal before the process died (default `true`): then a later start reads it
   * back; `false`, the step ran but nothing of it was kept, and the next start runs it again.
   */
  readonly journaled?: boolean;
}

/** The journals of a run's jobs in memory, with a crash point of the run's own job that fires once. */
export class KitJournal implements JournalStore {
  readonly #jobs = new Map<string, Map<string, JournalEntry>>();
  readonly #job: string;
  #crash: CrashPoint | undefined;
  /** The crash point that fired in the current start, if one did: the kit ends that start as a death. */
  crashed: CrashPoint | undefined;

  /**
   * Makes the journal.
   *
   * @param job The run's job.
   * @param crash Where the run dies, once.
   * @param recorded What an earlier run of the job journaled, if any.
   */
  constructor(job: string, crash: CrashPoint | undefined, recorded: readonly JournalEntry[] = []) {
    this.#job = job;
    this.#crash = crash;
    for (const entry of recorded) this.#of(job).set(entry.name, entry);
  }

  /** The run's job's entries, in the run's order (entries outside it, such as a retry's waits, after). */
  get entries(): JournalEntry[] {
    const place = (entry: JournalEntry) => entry.position || Number.MAX_SAFE_INTEGER;
    return [...this.#of(this.#job).values()].sort((a, b) => place(a) - place(b) || a.at - b.at);
  }

  /** The name the run's job gave a child (`invoke()`), by the child's job id: its `~child:` entry's. */
  childName(job: string): string | undefined {
    const entry = [...this.#of(this.#job).values()].find((each) => /^~child:/.test(each.name) && each.value === job);
    return entry?.name.slice(7);
  }

  load(job: string): Promise<readonly JournalEntry[]> {
    return Promise.resolve([...this.#of(job).values()]);
  }

  append(job: string, entry: JournalEntry): Promise<JournalEntry> {
    const crash = this.#crash, entries = this.#of(job);
    if (job === this.#job && (crash?.step === entry.name || `~ended:${crash?.step}` === entry.name)) {
      this.#crash = undefined;
      this.crashed = crash;
      if (crash!.journaled !== false) entries.set(entry.name, entry);
      // What the engine meets when its store is out of reach: the run ends there, its work never hearing of it.
      return Promise.reject(new ProtocolError("unavailable", `durableRun(): crashed after "${entry.name}"`));
    }
    if (!entries.has(entry.name)) entries.set(entry.name, entry);
    return Promise.resolve(entries.get(entry.name)!);
  }

  /** A job's entries, by name. */
  #of(job: string): Map<string, JournalEntry> {
    let entries = this.#jobs.get(job);
    if (entries === undefined) this.#jobs.set(job, entries = new Map());
    return entries;
  }
}
