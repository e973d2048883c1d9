/**
 * A `ResultStore` on Redis, shared by every instance that talks to the same Redis: deferred work
 * started on one instance is redeemed on any other.
 *
 * @module
 */
import { boundedCommands } from "./bounded-command.ts";
import type { RedisClientLike } from "./redis-client-like.ts";
import { evalScript } from "./eval-script.ts";
import { redisJournalStore } from "./redis-journal-store.ts";
import { hasEnded, type ResultStore, type StoredResult } from "../jobs/result-store.ts";

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

/** Marks an entry that has ended (`E`) or is running (`R`), so the script tells them apart without JSON. */
const ENDED = "E";
const RUNNING = "R";

/**
 * First writer wins, atomically (Redis runs a script without interleaving other commands): an entry
 * that has ended is never replaced. Redis docs, "Scripting with Lua".
 */
const SET_UNLESS_ENDED = `local v = redis.call('GET', KEYS[1])
if v and string.sub(v, 1, 1) == '${ENDED}' then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

/**
 * A set's member added, its lifetime lengthened to at least ARGV[2] ms and never shortened, at once (what
 * `PEXPIRE … GT` does on Redis 7, and Redis 6 and Valkey run too; a new set has no TTL: `PTTL` answers -1).
 */
const ADD_MEMBER = `redis.call('SADD', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`;

/** `SREM` and `SMEMBERS` through `EVAL`, the one command beside `GET` and `DEL` both clients are asked for. */
const REMOVE_MEMBER = `return redis.call('SREM', KEYS[1], ARGV[1])`;
const MEMBERS = `return redis.call('SMEMBERS', KEYS[1])`;

const utf8 = new TextEncoder();

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
 * Sets (`addMember`, `removeMember`, `members`) are Redis sets under `<prefix>set:<key>`, beside the entries
 * (`<prefix><id>`), expiring as a whole (`PEXPIRE`, lengthened only). Jobs' journals are hashes, one per job (its
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
  const prefix = options.prefix ?? "mcplite:result:";
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const run = boundedCommands(client, options.timeoutMs ?? 2_000);
  return {
    // Jobs' journals beside the entries, a hash per job (`<prefix>journal:<job>`), which the server takes.
    journalStore: redisJournalStore(client, {
      prefix: `${options.prefix ?? "mcplite:"}journal:`,
      timeoutMs: options.timeoutMs,
    }),
    async get(id) {
      const value = await run(() => client.get(prefix + id));
      if (value === null || value === undefined) return undefined;
      const text = typeof value === "string" ? value : new TextDecoder().decode(value as Uint8Array);
      return JSON.parse(text.slice(1)) as StoredResult;
    },
    async set(id, entry, ttlMs) {
      const json = JSON.stringify(entry);
      const size = utf8.encode(json).length;
      if (size > maxBytes) throw new RangeError(`a result of ${size} bytes exceeds the store's limit of ${maxBytes}`);
      const value = (hasEnded(entry) ? ENDED : RUNNING) + json;
      const ms = String(Math.max(1, Math.ceil(ttlMs)));
      return Number(await run(() => evalScript(client, SET_UNLESS_ENDED, [prefix + id], [value, ms]))) === 1;
    },
    async delete(id) {
      await run(() => client.del(prefix + id));
    },
    async addMember(key, member, ttlMs) {
      const ms = String(Math.max(1, Math.ceil(ttlMs)));
      await run(() => evalScript(client, ADD_MEMBER, [`${prefix}set:${key}`], [member, ms]));
    },
    async removeMember(key, member) {
      await run(() => evalScript(client, REMOVE_MEMBER, [`${prefix}set:${key}`], [member]));
    },
    async members(key) {
      const members = await run(() => evalScript(client, MEMBERS, [`${prefix}set:${key}`], []));
      return (members as unknown[]).map((member) =>
        typeof member === "string" ? member : new TextDecoder().decode(member as Uint8Array)
      );
    },
  };
}
