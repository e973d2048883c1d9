/**
 * Many instances on Deno KV: `denoKvResultStore(kv)` shares the results of `ctx.defer()` work (and
 * MCP task state) between every server instance using the same KV (`Deno.openKv()`).
 *
 * @module
 */
export type { DenoKvAtomicLike, DenoKvLike } from "./deno-kv-like.ts";
export { denoKvResultStore, type DenoKvResultStoreOptions } from "./kv-result-store.ts";
