/**
 * The store contract every feature of a server keeps its records in (`SharedStore`): keyed JSON records with a
 * lifetime, written plainly, once (`putIfAbsent`), on a condition (`compareAndSet`) or for good (`final`), and sets
 * of strings beside them. One contract below jobs, events, DPoP, the authorization server and code mode: a backend
 * (memory, Redis, PostgreSQL, Deno KV, a Durable Object) implements it once, natively, and `sharedStoreCases()` in
 * `@mcplite/sdk/testing` holds what every one passes. A feature reaches its own records through a namespace of it
 * (./store-space.ts), so that no key prefix is spelled by hand.
 *
 * @module
 */

/**
 * How {@link SharedStore.put} writes.
 *
 * @example
 * ```ts
 * import type { PutOptions } from "@mcplite/sdk";
 * const once: PutOptions = { final: true }; // no later put replaces it while it lives
 * ```
 */
export interface PutOptions {
  /**
   * The record is final: until it expires or is deleted, no `put`, `putIfAbsent` or `compareAndSet` replaces it
   * (the first final writer wins, among any number of concurrent writers on any instance).
   */
  readonly final?: boolean;
}

/**
 * A store of JSON records with a lifetime, shared by every instance of a server that opens the same backend: what
 * jobs, event subscriptions and logs, replay marks (DPoP proofs, `jti`s, webhook deliveries), flow control and saved
 * programs keep. Each operation on one key is atomic. Keys and set keys are apart: a record and a set of one key
 * never meet. A record is replaced by a `put` unless it is final ({@link PutOptions.final}); a write of a record
 * over the store's bound on one record rejects with a `RangeError`. Lifetimes are in ms from the write (at least 1).
 *
 * `redisResultStore()`, `postgresResultStore()`, `denoKvResultStore()` and `durableObjectResultStore()` carry the
 * native one of their backend as `store`, and `createMemoryResultStore()` one in memory; a store of your own passes
 * `sharedStoreCases()` (`@mcplite/sdk/testing`).
 *
 * @example The contract, on the in-memory store
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryResultStore } from "@mcplite/sdk";
 *
 * const store = createMemoryResultStore().store!;
 * assert.equal(await store.putIfAbsent("seen:a", true, 60_000), true);
 * assert.equal(await store.putIfAbsent("seen:a", true, 60_000), false); // once
 * await store.put("head", { n: 1 }, 60_000);
 * assert.equal(await store.compareAndSet("head", { n: 1 }, { n: 2 }, 60_000), true);
 * assert.equal(await store.compareAndSet("head", { n: 1 }, { n: 3 }, 60_000), false); // it moved on
 * assert.deepEqual(await store.get("head"), { n: 2 });
 * await store.addMember("subs", "s1", 60_000);
 * assert.deepEqual(await store.members("subs"), ["s1"]);
 * ```
 */
export interface SharedStore {
  /** Reads a record; `undefined` when there is none, or it expired. */
  get(key: string): Promise<unknown>;
  /**
   * Writes a record, replacing one that is not final.
   *
   * @returns Whether it was written (`false`: a final record stands there).
   */
  put(key: string, value: unknown, ttlMs: number, options?: PutOptions): Promise<boolean>;
  /**
   * Writes a record where there is none (a mark taken once: the first of any number of concurrent writers wins).
   *
   * @returns Whether it was written (`false`: a record stands there).
   */
  putIfAbsent(key: string, value: unknown, ttlMs: number): Promise<boolean>;
  /**
   * Replaces the record when it is still `expected` (equal as JSON to the value `get()` answered; `undefined`: there
   * is none) and not final: a read-modify-write that no concurrent writer, on any instance, interleaves.
   *
   * @returns Whether it was written (`false`: the record changed since, or is final).
   */
  compareAndSet(key: string, expected: unknown, next: unknown, ttlMs: number): Promise<boolean>;
  /** Removes a record, final or not; an absent one is no error. */
  delete(key: string): Promise<void>;
  /**
   * Adds `member` to the set at `key` (adding it again changes nothing), making the set live at least `ttlMs` from
   * now: a set has one lifetime for all its members, lengthened by an add, never shortened.
   */
  addMember(key: string, member: string, ttlMs: number): Promise<void>;
  /** Removes `member` from the set at `key`; an absent one is no error. */
  removeMember(key: string, member: string): Promise<void>;
  /** The members of the set at `key`, in no order; `[]` when there is none or it expired. */
  members(key: string): Promise<readonly string[]>;
}
