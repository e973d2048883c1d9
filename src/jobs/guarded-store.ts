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
import type { SharedStore } from "../store/shared-store.ts";
import { unrefTimer } from "../runtime/unref-timer.ts";

/** The first wait before a store operation is tried again through an outage, in ms; it doubles, up to the second. */
const AGAIN_FIRST_MS = 100;
const AGAIN_MOST_MS = 2_000;

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
 * Runs a store operation again while the store is out of reach (waits doubling from 100 ms to 2 s, with jitter so
 * instances do not retry in step), until `untilMs`: what must be written (a finished job's final entry, its end's
 * half) is kept in memory until the store takes it, or until it would have expired there.
 *
 * @param operation The operation (a guarded store's: its outages are `ProtocolError(Unavailable)`).
 * @param untilMs When to give up, on `now`'s clock.
 * @param now The clock.
 * @param failed What a first try of the operation threw, if it was made: the next waits first.
 * @returns What the operation returned.
 * @throws What it threw: an error that is not an outage at once, an outage once `untilMs` comes.
 */
export async function untilReachable<T>(
  operation: () => Promise<T>,
  untilMs: number,
  now: () => number,
  failed?: { readonly error: unknown },
): Promise<T> {
  for (let wait = AGAIN_FIRST_MS;; wait = Math.min(2 * wait, AGAIN_MOST_MS)) {
    if (failed === undefined) {
      try {
        return await operation();
      } catch (error) {
        failed = { error };
      }
    }
    const pause = wait * (0.75 + Math.random() / 2);
    if (!isUnavailable(failed.error) || now() + pause >= untilMs) throw failed.error;
    failed = undefined;
    await new Promise((resolve) => unrefTimer(setTimeout(resolve, pause)));
  }
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
 * Wraps the shared store (the one the result store is a view of, where the server's other features keep their
 * records) as {@link guardStore} wraps a result store.
 *
 * @param store The shared store.
 * @param guarded The guard (of the result store on the same backend: one outage, one report).
 * @returns The guarded store.
 */
export function guardSharedStore(store: SharedStore, guarded: StoreGuard): SharedStore {
  return {
    get: (key) => guarded(() => store.get(key)),
    put: (key, value, ttlMs, options) => guarded(() => store.put(key, value, ttlMs, options)),
    putIfAbsent: (key, value, ttlMs) => guarded(() => store.putIfAbsent(key, value, ttlMs)),
    compareAndSet: (key, expected, next, ttlMs) => guarded(() => store.compareAndSet(key, expected, next, ttlMs)),
    delete: (key) => guarded(() => store.delete(key)),
    addMember: (key, member, ttlMs) => guarded(() => store.addMember(key, member, ttlMs)),
    removeMember: (key, member) => guarded(() => store.removeMember(key, member)),
    members: (key) => guarded(() => store.members(key)),
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
