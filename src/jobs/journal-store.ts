/**
 * What a job keeps of its own: its journal, each completed step's value and each sleep's wake time, first writer's,
 * in the order the run took them. A durable engine keeps the same record: DBOS its `operation_outputs` table (a row
 * per workflow and function id, the function's name and output), Restate its journal, Inngest a step's memoized
 * state by its id. The server reads a job's journal once per start of it and appends as its steps complete.
 *
 * @module
 */

/**
 * One entry of a job's journal: what a step returned, or when a sleep wakes, as first recorded.
 *
 * @example
 * ```ts
 * import type { JournalEntry } from "@mcplite/sdk";
 * // The first step of a run, which returned `{ rows: 3 }`, and the sleep after it.
 * const step: JournalEntry = { name: "fetch", position: 1, value: { rows: 3 }, at: 1_790_000_000_000 };
 * const sleep: JournalEntry = { name: "~sleep:1", position: 2, value: 1_790_000_060_000, at: 1_790_000_000_004 };
 * ```
 */
export interface JournalEntry {
  /** The step's name, unique within its job (a sleep's: `~sleep:1` for a run's first). */
  readonly name: string;
  /**
   * Its place in the run, from 1: the run's steps and sleeps counted in the order they began, which a later start
   * of the job takes again (one that does not is refused, as DBOS refuses a workflow whose step names differ); 0
   * for an entry outside that order (a retry's wait, which only some starts take).
   */
  readonly position: number;
  /** Its value, as JSON gives it back; absent for a step that returned nothing. */
  readonly value?: unknown;
  /** When it was recorded, in ms since the epoch. */
  readonly at: number;
}

/**
 * Where jobs keep their journals (`createServer({ journalStore })`). The server takes it from its `resultStore` when
 * that store brings one (`redisResultStore()`, `postgresResultStore()`: a hash per job, a table keyed by job and
 * step), and otherwise keeps journals in the result store's own entries. A store shared by instances makes
 * {@link JournalStore.append}'s check and write one atomic step; `journalStoreCases()` (`@mcplite/sdk/testing`) holds the
 * cases every store passes.
 *
 * @example A journal store of one process, for tests (a `Map` per job)
 * ```ts
 * import assert from "node:assert/strict";
 * import type { JournalStore, JournalEntry } from "@mcplite/sdk";
 *
 * const journals = new Map<string, Map<string, JournalEntry>>(); // no expiry: a test's
 * const store: JournalStore = {
 *   load: (job) => Promise.resolve([...journals.get(job)?.values() ?? []]),
 *   append(job, entry) {
 *     const journal = journals.get(job) ?? journals.set(job, new Map()).get(job)!;
 *     if (!journal.has(entry.name)) journal.set(entry.name, entry); // first writer wins
 *     return Promise.resolve(journal.get(entry.name)!);
 *   },
 * };
 * await store.append("job-1", { name: "a", position: 1, value: 1, at: 0 }, 60_000);
 * const kept = await store.append("job-1", { name: "a", position: 1, value: 2, at: 5 }, 60_000);
 * assert.equal(kept.value, 1); // the first writer's
 * assert.deepEqual((await store.load("job-1")).map((entry) => entry.name), ["a"]);
 * ```
 */
export interface JournalStore {
  /**
   * Reads a job's whole journal, in one call (a store that can, in one round trip).
   *
   * @param job The job's id.
   * @returns Its entries, in no order; none when the job has none, or its journal expired.
   */
  load(job: string): Promise<readonly JournalEntry[]>;
  /**
   * Appends an entry to a job's journal unless it holds one of that name already (first writer wins, atomically,
   * also among instances), to live at least `ttlMs` from now.
   *
   * @param job The job's id.
   * @param entry The entry.
   * @param ttlMs How long the entry lives, in ms: what is left of the job's lifetime (its entries expire with it).
   * @returns The entry the journal holds under that name: `entry`, or the one recorded first.
   */
  append(job: string, entry: JournalEntry, ttlMs: number): Promise<JournalEntry>;
}
