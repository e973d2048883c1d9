/**
 * The in-memory result store, the default (`createMemoryResultStore()`): bounded, in one process, its jobs' journals
 * kept apart from its entries. What every result store keeps and promises is ./stored-result.ts, re-exported here.
 *
 * @module
 */
import type { ResultStore } from "./stored-result.ts";
import { journalStoreFromResults } from "./result-store-journals.ts";
import { resultStoreOver } from "./result-store-view.ts";
import { createMemoryStore } from "../store/memory-store.ts";

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

/**
 * Creates the in-memory result store: bounded by count and bytes, entries expiring after their TTL,
 * the first final entry winning (see {@link ResultStore}), with a journal store that keeps jobs' journals apart from its
 * entries. It is a view of job entries over a shared store in memory (its `store`, where the server's other features
 * keep their records). It lives in one process; servers behind a load balancer need a shared store instead.
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
  // Jobs' journals in records of their own, bounded apart (100 steps a record): a job of many steps evicts no result.
  const journals = createMemoryStore({ ...options, maxEntries: 100 * (options.maxEntries ?? 1_000) });
  return resultStoreOver(createMemoryStore(options), journalStoreFromResults(resultStoreOver(journals)));
}
