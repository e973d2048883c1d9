/**
 * A journal store kept in a `ResultStore`'s entries, for a store that brings none (a store of the user's, memory):
 * each entry under `step:<job>:<name>` (first writer wins), the job's names in the set `step:<job>` (in a store without
 * sets, the running entry `steps:<job>`). Cost, as the contract reads one entry at a time: loading N entries is one read
 * of the names, then N at once (two round trips); an append writes the name, then the value (two; three without sets).
 * Redis and PostgreSQL bring journal stores of their own: one read to load, one write to append.
 *
 * @module
 */
import type { JournalEntry, JournalStore } from "./journal-store.ts";
import type { ResultStore, StoredResult } from "./stored-result.ts";

/** An entry's value in the result store: `p` its position, `v` its value (absent for none). */
type Stored = { readonly p?: number; readonly v?: unknown };

/**
 * Keeps jobs' journals in a result store's entries.
 *
 * @param store The result store.
 * @returns The journal store.
 */
export function journalStoreFromResults(store: ResultStore): JournalStore {
  const key = (job: string, name: string) => `step:${job}:${name}`;
  const index = indexOf(store);
  return {
    async load(job) {
      const names = await index.names(job);
      const entries = await Promise.all(names.map(async (name) => entryOf(name, await store.get(key(job, name)))));
      return entries.filter((entry) => entry !== undefined);
    },
    async append(job, entry, ttlMs) {
      // The name first: a name whose value was never written reads as no entry, where a value whose name was lost
      // would never be read (its step would run again).
      await index.add(job, entry.name, ttlMs);
      const { name, position, value, at } = entry;
      const stored: Stored = value === undefined ? { p: position } : { p: position, v: value };
      const written: StoredResult = { status: "completed", result: { content: [], structuredContent: stored }, at };
      if (await store.set(key(job, name), written, ttlMs)) return entry;
      return entryOf(name, await store.get(key(job, name))) ?? entry;
    },
  };
}

/** The names a job's journal holds: a set of the store's, or a running entry of its in a store without sets. */
function indexOf(store: ResultStore): {
  names(job: string): Promise<readonly string[]>;
  add(job: string, name: string, ttlMs: number): Promise<void>;
} {
  const { addMember, members } = store;
  if (addMember !== undefined && members !== undefined) {
    return {
      names: (job) => members.call(store, `step:${job}`),
      add: (job, name, ttlMs) => addMember.call(store, `step:${job}`, name, ttlMs),
    };
  }
  // A read, then a write of the whole list: this process's adds to one job's list go one at a time (the steps of
  // one start that run at once). Two starts of a job running at once on two instances may each drop the other's
  // name; a step whose name was dropped runs again on a later start (at least once), its first value kept.
  const chains = new Map<string, Promise<void>>();
  const read = async (job: string) => {
    const entry = await store.get(`steps:${job}`);
    return entry?.status === "working" ? entry.continued?.state as string[] | undefined ?? [] : [];
  };
  return {
    names: read,
    add(job, name, ttlMs) {
      const added = (chains.get(job) ?? Promise.resolve()).then(async () => {
        const names = await read(job);
        if (names.includes(name)) return;
        await store.set(`steps:${job}`, { status: "working", continued: { state: [...names, name] } }, ttlMs);
      });
      const chain = added.catch(() => {});
      chains.set(job, chain);
      void chain.then(() => chains.get(job) === chain && chains.delete(job));
      return added;
    },
  };
}

/** A journal entry from its result-store entry; `undefined` when there is none. */
function entryOf(name: string, entry: StoredResult | undefined): JournalEntry | undefined {
  if (entry?.status !== "completed") return undefined;
  const { p, v } = (entry.result.structuredContent ?? {}) as Stored;
  // An entry written before positions were kept (`{ v }`) has none: 0, outside the run's order.
  return { name, position: p ?? 0, ...v === undefined ? {} : { value: v }, at: entry.at ?? 0 };
}
