/**
 * The deliveries a webhook receiver has taken, by signed `webhook-id` within the verifying key's scope (Standard
 * Webhooks §Idempotency: a message id is the same on every attempt), so that a retried, duplicated or replayed
 * delivery runs `onEvent` once. In memory (the newest `size` ids, a bounded LRU that refuses what it no longer
 * covers) or in a shared store with the ResultStore contract, across instances, for at least the replay window.
 *
 * @module
 */
import type { SharedStore } from "../../store/shared-store.ts";
import { storeSpace } from "../../store/store-space.ts";

/**
 * How long a captured delivery verifies, in ms: `standardwebhooks`' `verify()` takes a `webhook-timestamp` within
 * five minutes of now, either way (Standard Webhooks §Verifying), so an id taken at the earliest five minutes before
 * its timestamp replays until five minutes after it.
 */
const REPLAY_WINDOW_MS = 2 * 5 * 60_000;

/**
 * What a claim found: the id is new (run the delivery), a `duplicate` (seen), or `forgotten`: older than the memory
 * still covers (signed no later than an id it let go of), so it may be a replay of one no longer remembered.
 */
export type Claim = "new" | "duplicate" | "forgotten";

/** What the receiver asks: take an id (once), or give it back when the delivery failed and is to be retried. */
export interface SeenDeliveries {
  /**
   * Takes an id.
   *
   * @param id The delivery's id within its key's scope.
   * @param signedAt Its signed `webhook-timestamp`, in seconds.
   */
  claim(id: string, signedAt: number): Promise<Claim>;
  /** Gives an id back: its delivery failed (503), and the server's retry is to run it. */
  release(id: string): Promise<void>;
}

/**
 * The ids taken in this process: the newest `size`, the oldest forgotten first. A bound on memory must not become a
 * hole in replay protection (a capture replayed after `size` newer deliveries, within its five minutes): once an id
 * signed at `t` is let go of, a delivery signed at `t` or before is `forgotten`, not new. The sender signs each attempt
 * anew, so its retry of a delivery refused so (a receiver taking more than `size` deliveries in the window) passes.
 *
 * @param size How many to keep.
 * @returns The set.
 */
export function seenInMemory(size: number): SeenDeliveries {
  const ids = new Map<string, number>();
  let forgottenUpTo = -Infinity; // the latest signing time of an id let go of, in seconds
  return {
    claim(id, signedAt) {
      if (ids.has(id)) return Promise.resolve("duplicate");
      if (signedAt <= forgottenUpTo) return Promise.resolve("forgotten");
      ids.set(id, signedAt);
      // A Map iterates in insertion order: its first id is the oldest.
      if (ids.size > size) {
        const [oldest, at] = ids.entries().next().value!;
        ids.delete(oldest);
        forgottenUpTo = Math.max(forgottenUpTo, at);
      }
      return Promise.resolve("new");
    },
    release(id) {
      ids.delete(id);
      return Promise.resolve();
    },
  };
}

/**
 * The ids taken by every instance sharing a store: a mark in its `evseen` namespace, taken once (`putIfAbsent`: a
 * second taker, on any instance, is told it is a duplicate).
 *
 * @param store The shared store (Redis, PostgreSQL, Deno KV, a Durable Object, or any with the contract).
 * @param ttlMs How long an id is remembered: at least {@link REPLAY_WINDOW_MS}, whatever it says.
 * @returns The set.
 */
export function seenInStore(store: SharedStore, ttlMs: number): SeenDeliveries {
  const kept = Math.max(ttlMs, REPLAY_WINDOW_MS);
  const seen = storeSpace<true>(store, "evseen");
  return {
    claim: async (id) => await seen.putIfAbsent(id, true, kept) ? "new" : "duplicate",
    release: (id) => seen.delete(id),
  };
}
