/**
 * A `ResultStore` on Deno KV (`Deno.openKv()`: a local SQLite file, or a remote KV shared by every
 * instance, as on Deno Deploy).
 *
 * @module
 */
import { hasEnded, type ResultStore, type StoredResult } from "../jobs/result-store.ts";
import type { DenoKvLike } from "./deno-kv-like.ts";
import { kvSets } from "./kv-sets.ts";

/** Options of {@link denoKvResultStore}. */
export interface DenoKvResultStoreOptions {
  /** The first parts of every key (default `["mcplite", "result"]`). */
  prefix?: readonly string[];
  /**
   * The most bytes of one entry's JSON (default and at most 393 216, 384 KiB: an entry over a KV value's 64 KiB
   * is written in chunks, all in one atomic operation, which Deno KV bounds at 800 KiB); a larger one is refused
   * with a `RangeError`.
   */
  maxBytes?: number;
  /** The clock, in ms since the epoch (default `Date.now`). */
  now?: () => number;
}

/** An entry written whole in its key's value (its JSON fits one KV value). */
interface Slot {
  readonly entry: StoredResult;
  readonly expiresAt: number;
}

/** An entry written in chunks (`[...prefix, id, v, n]`), under the version `v` of its last write. */
interface ChunkedSlot {
  readonly chunked: { readonly v: string; readonly n: number; readonly ended: boolean };
  readonly expiresAt: number;
}

/** How many times a write retries when another writer committed between its read and its commit. */
const MAX_ATTEMPTS = 64;

/**
 * The UTF-16 code units of JSON in one value: a KV value is at most 64 KiB as V8 serializes it, and a string
 * with any character past Latin-1 takes two bytes a unit.
 */
const CHUNK_UNITS = 30_000;

/** The most bytes of one entry: its chunks, at most two bytes a unit, stay under KV's 800 KiB atomic operation. */
const MAX_ENTRY_BYTES = 393_216;

const utf8 = new TextEncoder();

/**
 * Creates a result store on Deno KV. An entry that has ended is never replaced: each write checks the
 * versionstamp it read (an atomic check), so a job's result and a concurrent cancellation never both
 * win. Entries expire with their token (`expireIn`, and a deadline checked on read, since KV deletes
 * expired keys lazily). An entry larger than one KV value is written in chunks under a version of its own, with
 * its metadata, in one atomic operation (the previous version's chunks deleted in it), so a read sees one whole
 * version.
 *
 * Sets (`addMember`, `removeMember`, `members`) live under `[...prefix, key, true]`, a key per member, listed by
 * that prefix and expiring as entries do (`expireIn`, and the lifetime checked on read); a set lengthened is kept
 * up to half its TTL longer than asked, so that a run of adds rewrites its members once per half TTL.
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
  const maxBytes = options.maxBytes ?? MAX_ENTRY_BYTES;
  if (!(maxBytes > 0 && maxBytes <= MAX_ENTRY_BYTES)) {
    throw new RangeError(`maxBytes must be above 0 and at most ${MAX_ENTRY_BYTES}, not ${maxBytes}`);
  }
  const now = options.now ?? Date.now;
  const live = (value: unknown): Slot | ChunkedSlot | undefined => {
    const slot = value as Slot | ChunkedSlot | null;
    return slot !== null && now() < slot.expiresAt ? slot : undefined;
  };
  const chunkKey = (id: string, v: string, n: number) => [...prefix, id, v, n];
  /** The chunk keys of a slot as it was read (live or not): a write or delete removes them with it. */
  const chunksOf = (id: string, value: unknown) => {
    const chunked = (value as ChunkedSlot | null)?.chunked;
    return chunked === undefined ? [] : Array.from({ length: chunked.n }, (_, n) => chunkKey(id, chunked.v, n));
  };
  const { list } = kv;
  return {
    // Sets where the KV lists keys (a `Deno.Kv` does; a shape of another without `list()` keeps entries only).
    ...list && kvSets({ get: (key) => kv.get(key), atomic: () => kv.atomic(), list: list.bind(kv) }, prefix, now),
    async get(id) {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const slot = live((await kv.get([...prefix, id])).value);
        if (slot === undefined) return undefined;
        if ("entry" in slot) return slot.entry;
        const { v, n } = slot.chunked;
        const parts = await Promise.all(
          Array.from({ length: n }, async (_, i) => (await kv.get(chunkKey(id, v, i))).value),
        );
        // A chunk gone: a write replaced this version between the two reads; read the new one.
        if (parts.every((part) => typeof part === "string")) return JSON.parse(parts.join("")) as StoredResult;
      }
      throw new Error(`the entry ${id} kept changing under ${MAX_ATTEMPTS} attempts to read it`);
    },
    async set(id, entry, ttlMs) {
      const json = JSON.stringify(entry);
      const size = utf8.encode(json).length;
      if (size > maxBytes) throw new RangeError(`a result of ${size} bytes exceeds the store's limit of ${maxBytes}`);
      const key = [...prefix, id];
      const ended = hasEnded(entry);
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const kept = await kv.get(key);
        const slot = live(kept.value);
        if (slot !== undefined && ("entry" in slot ? hasEnded(slot.entry) : slot.chunked.ended)) return false;
        const expireIn = Math.max(1, Math.ceil(ttlMs));
        const expiresAt = now() + expireIn;
        const op = kv.atomic().check({ key, versionstamp: kept.versionstamp });
        for (const stale of chunksOf(id, kept.value)) op.delete(stale);
        if (json.length <= CHUNK_UNITS) op.set(key, { entry, expiresAt } satisfies Slot, { expireIn });
        else {
          const v = crypto.randomUUID();
          const n = Math.ceil(json.length / CHUNK_UNITS);
          for (let i = 0; i < n; i++) {
            op.set(chunkKey(id, v, i), json.slice(i * CHUNK_UNITS, (i + 1) * CHUNK_UNITS), { expireIn });
          }
          op.set(key, { chunked: { v, n, ended }, expiresAt } satisfies ChunkedSlot, { expireIn });
        }
        if ((await op.commit()).ok) return true;
      }
      throw new Error(`the entry ${id} kept changing under ${MAX_ATTEMPTS} attempts to write it`);
    },
    async delete(id) {
      const key = [...prefix, id];
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const kept = await kv.get(key);
        const op = kv.atomic().check({ key, versionstamp: kept.versionstamp }).delete(key);
        for (const stale of chunksOf(id, kept.value)) op.delete(stale);
        if ((await op.commit()).ok) return;
      }
      throw new Error(`the entry ${id} kept changing under ${MAX_ATTEMPTS} attempts to delete it`);
    },
  };
}
