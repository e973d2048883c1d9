/**
 * A `ResultStore` on Deno KV (`Deno.openKv()`: a local SQLite file, or a remote KV shared by every
 * instance, as on Deno Deploy).
 *
 * @module
 */
import { hasEnded, type ResultStore, type StoredResult } from "../core/result-store.ts";

/** What the store needs of an atomic operation of Deno KV. */
export interface DenoKvAtomicLike {
  /** Fails the commit unless the key still has this versionstamp (`null`: absent). */
  check(...checks: { key: readonly string[]; versionstamp: string | null }[]): DenoKvAtomicLike;
  /** Writes a value, to expire after `expireIn` ms. */
  set(key: readonly string[], value: unknown, options?: { expireIn?: number }): DenoKvAtomicLike;
  /** Commits, atomically. */
  commit(): Promise<{ ok: boolean }>;
}

/** What the store needs of a `Deno.Kv`: the shape of the object `Deno.openKv()` answers. */
export interface DenoKvLike {
  /** Reads a value and its versionstamp. */
  get(key: readonly string[]): Promise<{ value: unknown; versionstamp: string | null }>;
  /** Deletes a key. */
  delete(key: readonly string[]): Promise<void>;
  /** Starts an atomic operation. */
  atomic(): DenoKvAtomicLike;
}

/** Options of {@link denoKvResultStore}. */
export interface DenoKvResultStoreOptions {
  /** The first parts of every key (default `["mcplite", "result"]`). */
  prefix?: readonly string[];
  /**
   * The most bytes of one entry's JSON (default 60 000, under Deno KV's 64 KiB bound on a value); a
   * larger one is refused with a `RangeError`.
   */
  maxBytes?: number;
  /** The clock, in ms since the epoch (default `Date.now`). */
  now?: () => number;
}

interface Slot {
  readonly entry: StoredResult;
  readonly expiresAt: number;
}

/** How many times a write retries when another writer committed between its read and its commit. */
const MAX_ATTEMPTS = 64;

const utf8 = new TextEncoder();

/**
 * Creates a result store on Deno KV. An entry that has ended is never replaced: each write checks the
 * versionstamp it read (an atomic check), so a job's result and a concurrent cancellation never both
 * win. Entries expire with their token (`expireIn`, and a deadline checked on read, since KV deletes
 * expired keys lazily).
 *
 * @param kv An open KV (`await Deno.openKv()`).
 * @param options The key prefix, the bound on one entry, the clock.
 * @returns The store.
 *
 * @example
 * ```ts ignore
 * import { createServer } from "@mcplite/sdk";
 * import { denoKvResultStore } from "@mcplite/sdk/deno-kv";
 * const kv = await Deno.openKv();
 * const server = createServer({ name: "app", version: "1.0.0", resultStore: denoKvResultStore(kv) });
 * ```
 */
export function denoKvResultStore(kv: DenoKvLike, options: DenoKvResultStoreOptions = {}): ResultStore {
  const prefix = options.prefix ?? ["mcplite", "result"];
  const maxBytes = options.maxBytes ?? 60_000;
  const now = options.now ?? Date.now;
  const live = (value: unknown): Slot | undefined => {
    const slot = value as Slot | null;
    return slot !== null && now() < slot.expiresAt ? slot : undefined;
  };
  return {
    async get(id) {
      return live((await kv.get([...prefix, id])).value)?.entry;
    },
    async set(id, entry, ttlMs) {
      const size = utf8.encode(JSON.stringify(entry)).length;
      if (size > maxBytes) throw new RangeError(`a result of ${size} bytes exceeds the store's limit of ${maxBytes}`);
      const key = [...prefix, id];
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const kept = await kv.get(key);
        const slot = live(kept.value);
        if (slot !== undefined && hasEnded(slot.entry)) return false;
        const expireIn = Math.max(1, Math.ceil(ttlMs));
        const value: Slot = { entry, expiresAt: now() + expireIn };
        const { ok } = await kv.atomic().check({ key, versionstamp: kept.versionstamp }).set(key, value, { expireIn })
          .commit();
        if (ok) return true;
      }
      throw new Error(`the entry ${id} kept changing under ${MAX_ATTEMPTS} attempts to write it`);
    },
    async delete(id) {
      await kv.delete([...prefix, id]);
    },
  };
}
