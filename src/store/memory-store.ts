/**
 * The shared store in one process's memory: the default of a server given no backend, bounded in records and bytes
 * (the oldest go first), with an injectable clock.
 *
 * @module
 */
import type { SharedStore } from "./shared-store.ts";

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** The most records kept (default 1 000); the oldest go first. */
  readonly maxEntries?: number;
  /** The most bytes of JSON kept (default 32 MiB); the oldest go first. A larger record is refused. */
  readonly maxBytes?: number;
  /** The clock, in ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
}

interface Slot {
  readonly value: unknown;
  readonly final: boolean;
  readonly size: number;
  readonly expiresAt: number;
}

/**
 * Creates a shared store in this process's memory. Values are kept as given (not copied); a record's size is its
 * key's and its JSON's length.
 *
 * @param options The bounds and the clock.
 * @returns The store.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryStore } from "./memory-store.ts";
 *
 * const store = createMemoryStore({ maxEntries: 10 });
 * assert.equal(await store.put("job", { status: "cancelled" }, 60_000, { final: true }), true);
 * assert.equal(await store.put("job", { status: "working" }, 60_000), false); // final
 * ```
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): SharedStore {
  const maxEntries = options.maxEntries ?? 1_000;
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  const now = options.now ?? Date.now;
  const slots = new Map<string, Slot>();
  // Each set: one lifetime for all its members (the contract's), lengthened by an add, never shortened.
  const sets = new Map<string, { at: number; members: Set<string> }>();
  let bytes = 0;

  const drop = (key: string) => {
    bytes -= slots.get(key)?.size ?? 0;
    slots.delete(key);
  };
  const live = (key: string) => {
    if (now() >= (slots.get(key)?.expiresAt ?? Infinity)) drop(key);
    return slots.get(key);
  };
  const liveSet = (key: string) => {
    if (now() >= (sets.get(key)?.at ?? Infinity)) sets.delete(key);
    return sets.get(key);
  };
  const write = (key: string, value: unknown, ttlMs: number, final: boolean) => {
    const size = key.length + JSON.stringify(value).length;
    if (size > maxBytes) throw new RangeError(`a record of ${size} bytes exceeds the store's limit of ${maxBytes}`);
    const time = now();
    drop(key); // re-inserting moves the record to the young end
    for (const [old, slot] of slots) { // expired records first, then the oldest, until it fits
      if (time < slot.expiresAt && slots.size < maxEntries && bytes + size <= maxBytes) break;
      drop(old);
    }
    slots.set(key, { value, final, size, expiresAt: time + ttlMs });
    bytes += size;
    return true;
  };
  // Each operation runs to its end before another starts (one thread): atomic as the contract asks.
  const atOnce = <T>(run: () => T): Promise<T> => {
    try {
      return Promise.resolve(run());
    } catch (error) {
      return Promise.reject(error);
    }
  };

  return {
    get: (key) => atOnce(() => live(key)?.value),
    put: (key, value, ttlMs, options) =>
      atOnce(() => live(key)?.final !== true && write(key, value, ttlMs, options?.final === true)),
    putIfAbsent: (key, value, ttlMs) => atOnce(() => live(key) === undefined && write(key, value, ttlMs, false)),
    compareAndSet: (key, expected, next, ttlMs) =>
      atOnce(() => {
        const slot = live(key);
        if (slot?.final === true) return false;
        if (JSON.stringify(slot?.value) !== JSON.stringify(expected)) return false;
        return write(key, next, ttlMs, false);
      }),
    delete: (key) => atOnce(() => drop(key)),
    addMember: (key, member, ttlMs) =>
      atOnce(() => {
        const set = liveSet(key);
        if (set === undefined) { for (const old of sets.keys()) liveSet(old); // a new set: expired ones go first
         }
        sets.set(key, { at: Math.max(set?.at ?? 0, now() + ttlMs), members: (set?.members ?? new Set()).add(member) });
      }),
    removeMember: (key, member) => atOnce(() => void liveSet(key)?.members.delete(member)),
    members: (key) => atOnce(() => [...liveSet(key)?.members ?? []]),
  };
}
