/**
 * The in-memory result store, the default (`createMemoryResultStore()`): bounded, in one process, its jobs' journals
 * kept apart from its entries. What every result store keeps and promises is ./stored-result.ts, re-exported here.
 *
 * @module
 */
import { hasEnded, type ResultStore, type StoredResult } from "./stored-result.ts";
import { journalStoreFromResults } from "./result-store-journals.ts";

export { hasEnded, type ResultStore, type StoredResult } from "./stored-result.ts";

/**
 * Options of {@link createMemoryResultStore}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryResultStore } from "../../mod.ts";
 * import type { MemoryResultStoreOptions } from "../types.ts";
 *
 * let now = 0; // a clock the test moves
 * const options: MemoryResultStoreOptions = { maxEntries: 10, now: () => now };
 * const store = createMemoryResultStore(options);
 * await store.set("a", { status: "working" }, 1_000);
 * now = 2_000; // past its TTL
 * assert.equal(await store.get("a"), undefined);
 * ```
 */
export interface MemoryResultStoreOptions {
  /**
   * The most entries kept (default 1 000); the oldest go first. Jobs' journals are kept apart, in up to 100 times as
   * many steps, so that a job of many steps evicts no result.
   */
  maxEntries?: number;
  /** The most bytes of JSON kept (default 32 MiB), and as many again of jobs' journals; the oldest go first. */
  maxBytes?: number;
  /** The clock, in ms since the epoch (default `Date.now`). */
  now?: () => number;
}

interface Slot {
  readonly entry: StoredResult;
  readonly size: number;
  readonly expiresAt: number;
}

/**
 * Creates the in-memory result store: bounded by count and bytes, entries expiring after their TTL,
 * the first final entry winning (see {@link ResultStore}), with a journal store that keeps jobs' journals apart from its
 * entries. It lives in one process; servers behind a load balancer need a shared store instead.
 *
 * @param options The bounds and the clock.
 * @returns The store.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryResultStore } from "./result-store.ts";
 * const store = createMemoryResultStore({ maxEntries: 2 });
 * await store.set("a", { status: "working" }, 60_000);
 * assert.deepEqual(await store.get("a"), { status: "working" });
 * assert.equal(await store.set("a", { status: "cancelled" }, 60_000), true);
 * assert.equal(await store.set("a", { status: "working" }, 60_000), false); // it has ended
 * ```
 */
export function createMemoryResultStore(options: MemoryResultStoreOptions = {}): ResultStore {
  // Jobs' journals in entries of their own, bounded apart (100 steps an entry): a job of many steps evicts no result.
  return { ...memoryEntries(options), journalStore: journalStoreFromResults(memoryEntries(options, 100)) };
}

/**
 * The in-memory result store's entries and sets: {@link createMemoryResultStore} without its journal store.
 *
 * @param options The bounds and the clock.
 * @param scale What `maxEntries` is multiplied by.
 */
function memoryEntries(options: MemoryResultStoreOptions, scale = 1): ResultStore {
  const maxEntries = scale * (options.maxEntries ?? 1_000);
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  const now = options.now ?? Date.now;
  const slots = new Map<string, Slot>();
  // Each set: one lifetime for all its members (the contract's), lengthened by an add, never shortened.
  const sets = new Map<string, { at: number; members: Set<string> }>();
  const live = (key: string) => {
    if (now() >= (sets.get(key)?.at ?? Infinity)) sets.delete(key);
    return sets.get(key);
  };
  let bytes = 0;

  const drop = (id: string) => {
    bytes -= slots.get(id)?.size ?? 0;
    slots.delete(id);
  };

  return {
    get(id) {
      if (now() >= (slots.get(id)?.expiresAt ?? Infinity)) drop(id);
      return Promise.resolve(slots.get(id)?.entry);
    },
    set(id, entry, ttlMs) {
      const size = id.length + JSON.stringify(entry).length;
      if (size > maxBytes) {
        return Promise.reject(new RangeError(`a result of ${size} bytes exceeds the store's limit of ${maxBytes}`));
      }
      const time = now();
      const kept = slots.get(id);
      if (kept !== undefined && time < kept.expiresAt && hasEnded(kept.entry)) return Promise.resolve(false);
      drop(id); // re-inserting moves the entry to the young end
      for (const [key, slot] of slots) { // expired entries first, then the oldest, until it fits
        if (time < slot.expiresAt && slots.size < maxEntries && bytes + size <= maxBytes) break;
        drop(key);
      }
      slots.set(id, { entry, size, expiresAt: time + ttlMs });
      bytes += size;
      return Promise.resolve(true);
    },
    delete: (id) => Promise.resolve(drop(id)),
    addMember(key, member, ttlMs) {
      const set = live(key);
      if (set === undefined) { for (const old of sets.keys()) live(old); // a new set: expired ones go first
       }
      sets.set(key, { at: Math.max(set?.at ?? 0, now() + ttlMs), members: (set?.members ?? new Set()).add(member) });
      return Promise.resolve();
    },
    removeMember(key, member) {
      live(key)?.members.delete(member);
      return Promise.resolve();
    },
    members: (key) => Promise.resolve([...live(key)?.members ?? []]),
  };
}
