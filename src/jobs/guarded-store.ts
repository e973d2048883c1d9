/**
 * The result store as the server uses it: a store that cannot be reached (Redis restarting, a remote
 * KV down) is an infrastructure fault, never a business failure. Its errors become
 * `ProtocolError(Unavailable)` with `retryAfterMs`, which every wire answers as "send again later",
 * and the store's own error reaches `onError` once per outage, not once per request.
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";
import { outOfReach } from "./queue-unavailable.ts";
import type { ResultStore } from "./result-store.ts";
import type { JournalStore } from "./journal-store.ts";

/** Runs one store operation, its failures made "send again later" (see {@link storeGuard}). */
export type StoreGuard = <T>(operation: () => Promise<T>) => Promise<T>;

/**
 * Tells whether an error is a transient fault of the store (retry), not a refusal of the request.
 *
 * @param error What a store operation threw.
 * @returns `true` for `ProtocolError(Unavailable)`.
 */
export function isUnavailable(error: unknown): error is ProtocolError {
  return error instanceof ProtocolError && error.code === "unavailable";
}

/**
 * Wraps a store: any error but a `RangeError` (an entry over the store's bound, refused whatever the
 * weather) becomes `ProtocolError(Unavailable)` with `data.retryAfterMs`. The first failure after a
 * success goes to `onError`; the next ones of the same outage do not. A store that flaps as it comes back (each
 * of a pool's connections broken by the outage fails once, between successes on new ones) is one outage: a
 * failure within `retryAfterMs` of the last report is not told again.
 *
 * @param store The store.
 * @param retryAfterMs When to come back, for `data.retryAfterMs`; or the guard of another store of the same backend
 *   (its journal store), so that one outage is told once.
 * @param onError Receives the store's error, once per outage.
 * @returns The guarded store.
 */
export function guardStore(
  store: ResultStore,
  retryAfterMs: number | StoreGuard,
  onError?: (error: unknown) => void,
): ResultStore {
  const guarded = typeof retryAfterMs === "number" ? storeGuard(retryAfterMs, onError) : retryAfterMs;
  const { addMember, removeMember, members } = store;
  return {
    get: (id) => guarded(() => store.get(id)),
    set: (id, entry, ttlMs) => guarded(() => store.set(id, entry, ttlMs)),
    delete: (id) => guarded(() => store.delete(id)),
    // The optional sets, where the store has them (a store without keeps its `undefined`: the caller checks).
    ...addMember && { addMember: (key, member, ttlMs) => guarded(() => addMember.call(store, key, member, ttlMs)) },
    ...removeMember && { removeMember: (key, member) => guarded(() => removeMember.call(store, key, member)) },
    ...members && { members: (key) => guarded(() => members.call(store, key)) },
  };
}

/**
 * Wraps a journal store as {@link guardStore} wraps a result store.
 *
 * @param store The journal store.
 * @param guarded The guard (of the result store on the same backend: one outage, one report).
 * @returns The guarded journal store.
 */
export function guardJournalStore(store: JournalStore, guarded: StoreGuard): JournalStore {
  return {
    load: (job) => guarded(() => store.load(job)),
    append: (job, entry, ttlMs) => guarded(() => store.append(job, entry, ttlMs)),
  };
}

/**
 * Makes the guard of a store's operations: any error but a `RangeError` becomes `ProtocolError(Unavailable)`, the
 * first of an outage told to `onError` (see {@link guardStore}).
 *
 * @param retryAfterMs When to come back, for `data.retryAfterMs`.
 * @param onError Receives the store's error, once per outage.
 * @returns The guard.
 */
export function storeGuard(retryAfterMs: number, onError?: (error: unknown) => void): StoreGuard {
  let healthy = true;
  let reportedAt = -Infinity;
  return async <T>(operation: () => Promise<T>): Promise<T> => {
    try {
      const value = await operation();
      healthy = true;
      return value;
    } catch (error) {
      if (error instanceof RangeError || isUnavailable(error)) throw error;
      const now = Date.now();
      if (healthy && now - reportedAt >= retryAfterMs) {
        onError?.(error);
        reportedAt = now;
      }
      healthy = false;
      throw outOfReach(error, retryAfterMs, "result store");
    }
  };
}
