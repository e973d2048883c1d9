/**
 * A `ResultStore` on Redis, shared by every instance that talks to the same Redis: deferred work
 * started on one instance is redeemed on any other.
 *
 * @module
 */
import type { RedisClientLike } from "./redis-client-like.ts";
import { redisJournalStore } from "./redis-journal-store.ts";
import { redisStore } from "./redis-store.ts";
import type { ResultStore } from "../jobs/result-store.ts";
import { resultStoreOver } from "../jobs/result-store-view.ts";

/** Options of {@link redisResultStore}. */
export interface RedisResultStoreOptions {
  /** The prefix of every key (default `"mcplite:result:"`), so one Redis serves several apps. */
  prefix?: string;
  /** The most bytes of one entry's JSON (default 1 MiB); a larger one is refused with a `RangeError`. */
  maxBytes?: number;
  /**
   * The longest wait for Redis to answer one command, in ms (default 2 000); past it the operation
   * fails (the server answers "send again later"), and a client that still says it is ready is
   * reopened (`destroy()`, then `connect()`). The first operations, made while the client makes its
   * first connection, wait for that connection as long.
   */
  timeoutMs?: number;
}

/**
 * Creates a result store on Redis. Keys are namespaced by `prefix` and expire with their promise
 * token (`PX`); an entry that has ended is never replaced (a Lua script checks and writes at
 * once), so a job's result and a concurrent cancellation on another instance never both win.
 *
 * While the client is not ready (Redis down, the client reconnecting with backoff), every operation
 * fails at once instead of waiting in node-redis's offline queue, and one with no answer within
 * `timeoutMs` fails too: the server answers "send again later" on every wire, and retries a finished
 * job's result until it is stored. The client's first connection is the exception: a process that makes
 * its client as it starts (`new Redis(url)`, or node-redis's `connect()` not awaited) has its first
 * operations wait for it, up to `timeoutMs`, once; a Redis that is down then fails them as above. Give the client an `error` listener: node-redis emits one per failed
 * reconnection, and without a listener the process exits (ioredis logs each instead).
 *
 * It is a view of job entries over the shared store on Redis (its `store`, where the server's other features keep
 * their records, under the same prefix). Sets (`addMember`, `removeMember`, `members`) are Redis sets under
 * `<prefix>set:<key>`, beside the entries (`<prefix><id>`), expiring as a whole (`PEXPIRE`, lengthened only). Jobs' journals are hashes, one per job (its
 * `journalStore`: {@link redisJournalStore} under `<prefix>journal:`, default `mcplite:journal:`), which the server takes.
 *
 * Valkey speaks the same protocol: bring either client, connected to it. Upstash: connect either client to
 * the database's `rediss://` endpoint (TCP); its REST client (`@upstash/redis`) is not a client this store takes.
 *
 * @param client A node-redis or ioredis client, connected or connecting.
 * @param options The key prefix and the bound on one entry.
 * @returns The store.
 *
 * @example
 * ```ts ignore
 * import { createClient } from "redis";
 * import { createServer } from "@mcplite/sdk";
 * import { redisResultStore } from "@mcplite/sdk/redis";
 * const redis = await createClient({ url: "redis://127.0.0.1:6379" })
 *   .on("error", () => {}) // outages reach the server's onError through the store, once each
 *   .connect();
 * const server = createServer({ name: "app", version: "1.0.0", resultStore: redisResultStore(redis) });
 * ```
 *
 * @example With ioredis (the client BullMQ uses)
 * ```ts ignore
 * import { Redis } from "ioredis";
 * import { createServer } from "@mcplite/sdk";
 * import { redisResultStore } from "@mcplite/sdk/redis";
 * const redis = new Redis("redis://127.0.0.1:6379");
 * const server = createServer({ name: "app", version: "1.0.0", resultStore: redisResultStore(redis) });
 * ```
 */
export function redisResultStore(client: RedisClientLike, options: RedisResultStoreOptions = {}): ResultStore {
  return resultStoreOver(
    redisStore(client, options),
    // Jobs' journals beside the entries, a hash per job (`<prefix>journal:<job>`), which the server takes.
    redisJournalStore(client, { prefix: `${options.prefix ?? "mcplite:"}journal:`, timeoutMs: options.timeoutMs }),
  );
}
