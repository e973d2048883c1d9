/**
 * The deliveries a webhook receiver has taken, by signed `webhook-id` within the verifying key's scope (Standard
 * Webhooks §Idempotency: a message id is the same on every attempt), so that a retried, duplicated or replayed
 * delivery runs `onEvent` once. In memory (the newest `size` ids, a bounded LRU) or in a shared store with the
 * ResultStore contract, across instances.
 *
 * @module
 */
import type { ResultStore } from "../../jobs/result-store.ts";

/** What the receiver asks: take an id (once), or give it back when the delivery failed and is to be retried. */
export interface SeenDeliveries {
  /** Takes an id: `true` the first time, `false` for a duplicate. */
  claim(id: string): Promise<boolean>;
  /** Gives an id back: its delivery failed (503), and the server's retry is to run it. */
  release(id: string): Promise<void>;
}

/**
 * The ids taken in this process: the newest `size`, the oldest forgotten first.
 *
 * @param size How many to keep.
 * @returns The set.
 */
export function seenInMemory(size: number): SeenDeliveries {
  const ids = new Set<string>();
  return {
    claim(id) {
      if (ids.has(id)) return Promise.resolve(false);
      ids.add(id);
      // A Set iterates in insertion order: its first id is the oldest.
      if (ids.size > size) ids.delete(ids.values().next().value!);
      return Promise.resolve(true);
    },
    release(id) {
      ids.delete(id);
      return Promise.resolve();
    },
  };
}

/**
 * The ids taken by every instance sharing a store: an id is an ended entry (`evseen:<id>`), which the store's
 * first-writer-wins `set()` writes once (a second writer, on any instance, is told `false`).
 *
 * @param store The store (Redis, PostgreSQL, Deno KV, a Durable Object, or any with the contract).
 * @param ttlMs How long an id is remembered.
 * @returns The set.
 */
export function seenInStore(store: Pick<ResultStore, "set" | "delete">, ttlMs: number): SeenDeliveries {
  return {
    claim: (id) => store.set(`evseen:${id}`, { status: "cancelled", at: Date.now() }, ttlMs),
    release: (id) => store.delete(`evseen:${id}`),
  };
}
