/**
 * A feature's namespace in the shared store (`storeSpace(store, "dpop")`): its records and sets under `<name>:`,
 * typed by what the feature keeps there, so that no feature spells a key prefix by hand or reads another's records.
 *
 * @module
 */
import type { PutOptions, SharedStore } from "./shared-store.ts";

/**
 * One feature's records (`T`) in a {@link SharedStore}: the store's operations on keys of its namespace.
 *
 * @typeParam T What a record of the feature holds (JSON).
 */
export interface StoreSpace<T> {
  /** The store it is a namespace of. */
  readonly store: SharedStore;
  /** Reads a record of the namespace. */
  get(key: string): Promise<T | undefined>;
  /** Writes a record, replacing one that is not final; `false`: a final one stands. */
  put(key: string, value: T, ttlMs: number, options?: PutOptions): Promise<boolean>;
  /** Writes a record where there is none; `false`: one stands. */
  putIfAbsent(key: string, value: T, ttlMs: number): Promise<boolean>;
  /** Replaces the record while it is `expected` and not final; `false` otherwise. */
  compareAndSet(key: string, expected: T | undefined, next: T, ttlMs: number): Promise<boolean>;
  /** Removes a record. */
  delete(key: string): Promise<void>;
  /** Adds a member to a set of the namespace, the set living at least `ttlMs` from now. */
  addMember(key: string, member: string, ttlMs: number): Promise<void>;
  /** Removes a member from a set of the namespace. */
  removeMember(key: string, member: string): Promise<void>;
  /** The members of a set of the namespace. */
  members(key: string): Promise<readonly string[]>;
  /** Removes every member of a set of the namespace (the store has no delete of a set: each member is removed). */
  clearMembers(key: string): Promise<void>;
}

/** A namespace's name: lower-case letters, digits and `-`, so that `<name>:` never runs into another's keys. */
const NAME = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * A feature's namespace in a store.
 *
 * @param store The shared store.
 * @param name The namespace (`dpop`, `evseen`, …): its keys are `<name>:<key>` in the store.
 * @returns The namespace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryStore } from "./memory-store.ts";
 * import { storeSpace } from "./store-space.ts";
 *
 * const store = createMemoryStore();
 * const seen = storeSpace<true>(store, "seen");
 * assert.equal(await seen.putIfAbsent("a", true, 60_000), true);
 * assert.equal(await store.get("seen:a"), true);
 * ```
 */
export function storeSpace<T>(store: SharedStore, name: string): StoreSpace<T> {
  if (!NAME.test(name)) throw new TypeError(`a store namespace is [a-z][a-z0-9-]{0,31}, not ${JSON.stringify(name)}`);
  const at = (key: string) => `${name}:${key}`;
  return {
    store,
    get: (key) => store.get(at(key)) as Promise<T | undefined>,
    put: (key, value, ttlMs, options) => store.put(at(key), value, ttlMs, options),
    putIfAbsent: (key, value, ttlMs) => store.putIfAbsent(at(key), value, ttlMs),
    compareAndSet: (key, expected, next, ttlMs) => store.compareAndSet(at(key), expected, next, ttlMs),
    delete: (key) => store.delete(at(key)),
    addMember: (key, member, ttlMs) => store.addMember(at(key), member, ttlMs),
    removeMember: (key, member) => store.removeMember(at(key), member),
    members: (key) => store.members(at(key)),
    clearMembers: async (key) => {
      await Promise.all((await store.members(at(key))).map((member) => store.removeMember(at(key), member)));
    },
  };
}
