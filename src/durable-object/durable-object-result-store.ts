/**
 * A `ResultStore` on Cloudflare Durable Objects: one object per entry (`ResultObject`), reached through
 * its namespace from any Worker isolate.
 *
 * @module
 */
import type { ResultStore } from "../jobs/result-store.ts";
import { resultStoreOver } from "../jobs/result-store-view.ts";
import { durableObjectStore } from "./durable-object-store.ts";
import type { DurableObjectNamespaceLike } from "./namespace-like.ts";

/**
 * The options of {@link durableObjectResultStore}: the objects' names and how large one entry may be.
 *
 * @example
 * ```ts
 * import type { DurableObjectResultStoreOptions } from "@mcplite/sdk/durable-object";
 * // Two servers sharing one namespace, each under its own prefix.
 * const options: DurableObjectResultStoreOptions = { prefix: "billing:result:", maxBytes: 2 * 1024 * 1024 };
 * ```
 */
export interface DurableObjectResultStoreOptions {
  /** The prefix of every object's name (default `"mcplite:result:"`), so one namespace serves several servers. */
  readonly prefix?: string;
  /**
   * The most bytes of one entry's JSON (default 1 MiB, at most 4 000 000); a larger one is refused with a
   * `RangeError`.
   */
  readonly maxBytes?: number;
}

/**
 * Creates a result store on Durable Objects: each entry is one `ResultObject`, named by the store's `prefix`
 * and the entry's id (`idFromName`), so entries spread over Cloudflare's machines and any isolate of the Worker
 * reaches them. An entry that has ended is never replaced: the object reads and writes in one request, and
 * Cloudflare delivers an object's requests one at a time. Entries expire with their token (an alarm deletes
 * them; a read past the expiry finds nothing). An entry's JSON is at most `maxBytes`; it is stored in chunks, so
 * it may be larger than a storage value. A set (`addMember`, `removeMember`, `members`) is one object too, named
 * `<prefix>set:<key>`, each member a key of its storage, listed by prefix; it expires as a whole, by the same alarm.
 * It is a view of job entries over the shared store on Durable Objects (its `store`, where the server's other
 * features keep their records), an ended entry written final.
 *
 * An object that cannot be reached (overloaded, restarting, a network fault between Cloudflare's machines) makes
 * the operation fail: the server answers "send again later" on every wire.
 *
 * @param namespace The Worker's Durable Object namespace binding whose class is `ResultObject`
 *   (`env.MCPLITE_RESULTS`; at module scope, `import { env } from "cloudflare:workers"`).
 * @param options The prefix of the objects' names and the bound on one entry.
 * @returns The store, for `createServer({ resultStore })`.
 *
 * @example
 * ```ts ignore
 * import { env } from "cloudflare:workers";
 * import { createServer } from "@mcplite/sdk";
 * import { durableObjectResultStore } from "@mcplite/sdk/durable-object";
 * export { ResultObject } from "@mcplite/sdk/durable-object"; // bound as MCPLITE_RESULTS in wrangler.jsonc
 *
 * const server = createServer({
 *   name: "app",
 *   version: "1.0.0",
 *   resultStore: durableObjectResultStore(env.MCPLITE_RESULTS),
 * });
 * export default server;
 * ```
 */
export function durableObjectResultStore<Id>(
  namespace: DurableObjectNamespaceLike<Id>,
  options: DurableObjectResultStoreOptions = {},
): ResultStore {
  return resultStoreOver(durableObjectStore(namespace, options));
}
