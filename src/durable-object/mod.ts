/**
 * Many isolates of a Cloudflare Worker: `durableObjectResultStore(namespace)` shares the results of `ctx.defer()`
 * work (and MCP task state) between every isolate of the Worker, each entry in a Durable Object of its own
 * ({@link ResultObject}, which the Worker exports and binds). Nothing here imports `cloudflare:workers`: the
 * entry point loads on Deno, Bun and Node too.
 *
 * @module
 */
export { ResultObject } from "./result-object.ts";
export { durableObjectResultStore } from "./durable-object-result-store.ts";
