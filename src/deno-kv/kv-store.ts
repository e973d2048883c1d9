/**
 * The shared store on Deno KV (`SharedStore`), which `denoKvResultStore()` is a view of: a record is a key's value
 * (with whether it is final and when it expires), or chunks of it under a version of its own when its JSON is larger
 * than one KV value; each write checks the versionstamp it read (an atomic check) and retries when another writer
 * committed between. Sets are `kvSets()`'s, beside the records.
 *
 * @module
 */
import type { SharedStore } from "../store/shared-store.ts";
import { ended, type Entry } from "../store/store-of.ts";
import type { DenoKvLike } from "./deno-kv-like.ts";
import { kvSets } from "./kv-sets.ts";

/** Options of {@link denoKvStore}: those of `denoKvResultStore()`. */
export interface DenoKvStoreOptions {
  /** The first parts of every key (default `["mcplite", "result"]`). */
  readonly prefix?: readonly string[];
  /** The most bytes of one record's JSON (default and at most 393 216, 384 KiB). */
  readonly maxBytes?: number;
  /** The clock, in ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
}

/**
 * A record written whole in its key's value (its JSON fits one KV value). `final` is absent in a slot written before
 * the store contract, a job entry: it is final when the entry has ended.
 */
interface Slot {
  readonly entry: unknown;
  readonly final?: boolean;
  readonly expiresAt: number;
}

/** A record written in chunks (`[...prefix, key, v, n]`), under the version `v` of its last write. */
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

/** The most bytes of one record: its chunks, at most two bytes a unit, stay under KV's 800 KiB atomic operation. */
const MAX_RECORD_BYTES = 393_216;

const utf8 = new TextEncoder();

/** Whether a live slot holds a final record. */
function isFinal(slot: Slot | ChunkedSlot): boolean {
  if ("chunked" in slot) return slot.chunked.ended;
  return slot.final ?? (typeof slot.entry === "object" && slot.entry !== null && ended(slot.entry as Entry));
}

/**
 * Creates the shared store on Deno KV. Records expire with their lifetime (`expireIn`, and a deadline checked on
 * read, since KV deletes expired keys lazily). A record larger than one KV value is written in chunks under a version
 * of its own, with its metadata, in one atomic operation (the previous version's chunks deleted in it), so a read sees
 * one whole version. Sets live under `[...prefix, key, true]` where the KV lists keys (a `Deno.Kv` does).
 *
 * @param kv An open KV (`await Deno.openKv()`).
 * @param options The key prefix, the bound on one record, the clock.
 * @returns The store.
 */
export function denoKvStore(kv: DenoKvLike, options: DenoKvStoreOptions = {}): SharedStore {
  const prefix = options.prefix ?? ["mcplite", "result"];
  const maxBytes = options.maxBytes ?? MAX_RECORD_BYTES;
  if (!(maxBytes > 0 && maxBytes <= MAX_RECORD_BYTES)) {
    throw new RangeError(`maxBytes must be above 0 and at most ${MAX_RECORD_BYTES}, not ${maxBytes}`);
  }
  const now = options.now ?? Date.now;
  const live = (value: unknown): Slot | ChunkedSlot | undefined => {
    const slot = value as Slot | ChunkedSlot | null;
    return slot !== null && now() < slot.expiresAt ? slot : undefined;
  };
  const chunkKey = (key: string, v: string, n: number) => [...prefix, key, v, n];
  /** The chunk keys of a slot as it was read (live or not): a write or delete removes them with it. */
  const chunksOf = (key: string, value: unknown) => {
    const chunked = (value as ChunkedSlot | null)?.chunked;
    return chunked === undefined ? [] : Array.from({ length: chunked.n }, (_, n) => chunkKey(key, chunked.v, n));
  };
  /** A live slot's record: `undefined` when a chunk is gone (a write replaced its version meanwhile). */
  const recordIn = async (key: string, slot: Slot | ChunkedSlot): Promise<{ value: unknown } | undefined> => {
    if ("entry" in slot) return { value: slot.entry };
    const { v, n } = slot.chunked;
    const parts = await Promise.all(
      Array.from({ length: n }, async (_, i) => (await kv.get(chunkKey(key, v, i))).value),
    );
    return parts.every((part) => typeof part === "string") ? { value: JSON.parse(parts.join("")) } : undefined;
  };
  const jsonOf = (value: unknown) => {
    const json = JSON.stringify(value);
    const size = utf8.encode(json).length;
    if (size > maxBytes) throw new RangeError(`a record of ${size} bytes exceeds the store's limit of ${maxBytes}`);
    return json;
  };
  /**
   * Writes a record where `allowed` lets it (given the live slot and its record, read when `needsValue`), checking
   * the versionstamp read: `false` when it does not.
   */
  const write = async (
    key: string,
    value: unknown,
    ttlMs: number,
    final: boolean,
    allowed: (slot: Slot | ChunkedSlot | undefined, record: { value: unknown } | undefined) => boolean,
    needsValue = false,
  ): Promise<boolean> => {
    const json = jsonOf(value);
    const at = [...prefix, key];
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const kept = await kv.get(at);
      const slot = live(kept.value);
      const record = needsValue && slot !== undefined ? await recordIn(key, slot) : undefined;
      if (needsValue && slot !== undefined && record === undefined) continue; // replaced between the reads
      if (!allowed(slot, record)) return false;
      const expireIn = Math.max(1, Math.ceil(ttlMs));
      const expiresAt = now() + expireIn;
      const op = kv.atomic().check({ key: at, versionstamp: kept.versionstamp });
      for (const stale of chunksOf(key, kept.value)) op.delete(stale);
      if (json.length <= CHUNK_UNITS) op.set(at, { entry: value, final, expiresAt } satisfies Slot, { expireIn });
      else {
        const v = crypto.randomUUID();
        const n = Math.ceil(json.length / CHUNK_UNITS);
        for (let i = 0; i < n; i++) {
          op.set(chunkKey(key, v, i), json.slice(i * CHUNK_UNITS, (i + 1) * CHUNK_UNITS), { expireIn });
        }
        op.set(at, { chunked: { v, n, ended: final }, expiresAt } satisfies ChunkedSlot, { expireIn });
      }
      if ((await op.commit()).ok) return true;
    }
    throw new Error(`the record ${key} kept changing under ${MAX_ATTEMPTS} attempts to write it`);
  };
  const noSets = (): never => {
    throw new TypeError("this KV lists no keys (list()), where sets are kept: give a Deno.Kv");
  };
  const { list } = kv;
  const sets = list === undefined
    ? { addMember: noSets, removeMember: noSets, members: noSets }
    : kvSets({ get: (key) => kv.get(key), atomic: () => kv.atomic(), list: list.bind(kv) }, prefix, now);
  return {
    ...sets,
    async get(key) {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const slot = live((await kv.get([...prefix, key])).value);
        if (slot === undefined) return undefined;
        const record = await recordIn(key, slot);
        if (record !== undefined) return record.value;
      }
      throw new Error(`the record ${key} kept changing under ${MAX_ATTEMPTS} attempts to read it`);
    },
    put: (key, value, ttlMs, options) =>
      write(key, value, ttlMs, options?.final === true, (slot) => slot === undefined || !isFinal(slot)),
    putIfAbsent: (key, value, ttlMs) => write(key, value, ttlMs, false, (slot) => slot === undefined),
    compareAndSet: (key, expected, next, ttlMs) =>
      write(
        key,
        next,
        ttlMs,
        false,
        (slot, record) =>
          slot === undefined
            ? expected === undefined
            : !isFinal(slot) && expected !== undefined && JSON.stringify(record!.value) === JSON.stringify(expected),
        true,
      ),
    async delete(key) {
      const at = [...prefix, key];
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const kept = await kv.get(at);
        const op = kv.atomic().check({ key: at, versionstamp: kept.versionstamp }).delete(at);
        for (const stale of chunksOf(key, kept.value)) op.delete(stale);
        if ((await op.commit()).ok) return;
      }
      throw new Error(`the record ${key} kept changing under ${MAX_ATTEMPTS} attempts to delete it`);
    },
  };
}
