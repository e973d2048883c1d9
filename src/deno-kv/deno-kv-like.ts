/**
 * What the Deno KV store needs of a `Deno.Kv`: one declaration its entries and its sets both read.
 *
 * @module
 */
/** What the store needs of an atomic operation of Deno KV. */
export interface DenoKvAtomicLike {
  /** Fails the commit unless the key still has this versionstamp (`null`: absent). */
  check(...checks: { key: readonly unknown[]; versionstamp: string | null }[]): DenoKvAtomicLike;
  /** Writes a value, to expire after `expireIn` ms. */
  set(key: readonly unknown[], value: unknown, options?: { expireIn?: number }): DenoKvAtomicLike;
  /** Deletes a key. */
  delete(key: readonly unknown[]): DenoKvAtomicLike;
  /** Commits, atomically. */
  commit(): Promise<{ ok: boolean }>;
}

/** What the store needs of a `Deno.Kv`: the shape of the object `Deno.openKv()` answers. */
export interface DenoKvLike {
  /** Reads a value and its versionstamp. */
  get(key: readonly unknown[]): Promise<{ value: unknown; versionstamp: string | null }>;
  /** Starts an atomic operation. */
  atomic(): DenoKvAtomicLike;
  /** Lists the keys under a prefix, with their values (the store's sets need it; without it, it has none). */
  list?(selector: { prefix: readonly (string | number | boolean)[] }): AsyncIterable<{
    readonly key: readonly unknown[];
    readonly value: unknown;
    readonly versionstamp: string;
  }>;
}
