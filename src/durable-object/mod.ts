/**
 * Many isolates of a Cloudflare Worker: `durableObjectResultStore(namespace)` shares the results of `ctx.defer()`
 * work (and MCP task state) between every isolate of the Worker, each entry in a Durable Object of its own
 * ({@link ResultObject}, which the Worker exports and binds), and `durableObjectNotifier(namespace)` carries the
 * changes raised on any isolate to the listening streams of every isolate, through one more such object. Nothing
 * here imports `cloudflare:workers`: the entry point loads on Deno, Bun and Node too.
 *
 * @module
 */
export { ResultObject } from "./result-object.ts";
export { durableObjectResultStore, type DurableObjectResultStoreOptions } from "./durable-object-result-store.ts";
export { durableObjectNotifier, type DurableObjectNotifierOptions } from "./durable-object-notifier.ts";
export type { DurableObjectNamespaceLike } from "./namespace-like.ts";
