/**
 * A `ResultStore` on Deno KV (`Deno.openKv()`: a local SQLite file, or a remote KV shared by every
 * instance, as on Deno Deploy).
 *
 * @module
 */
import type { ResultStore } from "../jobs/result-store.ts";
import { resultStoreOver } from "../jobs/result-store-view.ts";
import type { DenoKvLike } from "./deno-kv-like.ts";
import { denoKvStore } from "./kv-store.ts";

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
 * up to half its TTL longer than asked, so that a run of adds rewrites its members once per half TTL. It is a view of
 * job entries over the shared store on Deno KV (its `store`, where the server's other features keep their records),
 * an ended entry written final.
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
  const store = resultStoreOver(denoKvStore(kv, options));
  if (kv.list !== undefined) return store;
  // A KV shape that lists no keys keeps entries only: the result store's sets are optional, and it has none.
  const { addMember: _, removeMember: __, members: ___, ...entries } = store;
  return entries;
}
