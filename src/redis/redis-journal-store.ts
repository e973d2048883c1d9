/**
 * A `JournalStore` on Redis: one hash per job, a field per step, so resuming a job reads its journal in one command.
 *
 * @module
 */
import { boundedCommands } from "./bounded-command.ts";
import type { RedisClientLike } from "./redis-client-like.ts";
import { evalScript } from "./eval-script.ts";
import type { JournalEntry, JournalStore } from "../jobs/journal-store.ts";

/**
 * The options of {@link redisJournalStore}.
 *
 * @example
 * ```ts
 * import type { RedisJournalStoreOptions } from "@mcplite/sdk/redis";
 * // Beside another app's journals on the same Redis, and a Redis farther away than the default wait allows for.
 * const options: RedisJournalStoreOptions = { prefix: "billing:journal:", timeoutMs: 5_000 };
 * ```
 */
export interface RedisJournalStoreOptions {
  /** The prefix of every job's hash (default `"mcplite:journal:"`), so one Redis serves several apps. */
  readonly prefix?: string;
  /** The longest wait for Redis to answer one command, in ms (default 2 000), as `redisResultStore()`'s. */
  readonly timeoutMs?: number;
}

/**
 * First writer wins (`HSETNX`), the journal kept at least ARGV[3] ms (lengthened, never shortened), and the entry that
 * stands read back, in one step (Redis runs a script without interleaving other commands).
 */
const APPEND = `redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return redis.call('HGET', KEYS[1], ARGV[1])`;

/** `HGETALL` through `EVAL`, the one command beside `GET` and `DEL` both clients are asked for. */
const LOAD = `return redis.call('HGETALL', KEYS[1])`;

/** A field's value: the entry but its name (the field's). */
type Field = { readonly p: number; readonly v?: unknown; readonly at: number };

/**
 * Creates a journal store on Redis: a job's journal is the hash `<prefix><job>`, each step a field holding its place, value
 * and time (`HSETNX`: the first writer wins), the hash expiring with the job (`PEXPIRE`). Loading a journal is one
 * `HGETALL`; an append one script. `redisResultStore()` brings one on the same client, which the server takes; make
 * one yourself for `createServer({ journalStore })` only to keep journals elsewhere than the results.
 *
 * @param client A node-redis or ioredis client, connected or connecting.
 * @param options The key prefix and the longest wait for one command.
 * @returns The store.
 *
 * @example
 * ```ts ignore
 * import { Redis } from "ioredis";
 * import { createServer } from "@mcplite/sdk";
 * import { redisJournalStore, redisResultStore } from "@mcplite/sdk/redis";
 * const redis = new Redis("redis://127.0.0.1:6379");
 * // The result store's own journal store, as the server would take it, under another prefix.
 * const server = createServer({
 *   name: "app",
 *   version: "1.0.0",
 *   resultStore: redisResultStore(redis),
 *   journalStore: redisJournalStore(redis, { prefix: "app:journal:" }),
 * });
 * ```
 */
export function redisJournalStore(client: RedisClientLike, options: RedisJournalStoreOptions = {}): JournalStore {
  const prefix = options.prefix ?? "mcplite:journal:";
  const run = boundedCommands(client, options.timeoutMs ?? 2_000);
  return {
    async load(job) {
      const flat = await run(() => evalScript(client, LOAD, [prefix + job], [])) as unknown[];
      const entries: JournalEntry[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) entries.push(entryOf(text(flat[i]), text(flat[i + 1])));
      return entries;
    },
    async append(job, entry, ttlMs) {
      const field: Field = { p: entry.position, ...entry.value === undefined ? {} : { v: entry.value }, at: entry.at };
      const ms = String(Math.max(1, Math.ceil(ttlMs)));
      const kept = await run(() => evalScript(client, APPEND, [prefix + job], [entry.name, JSON.stringify(field), ms]));
      return entryOf(entry.name, text(kept));
    },
  };
}

/** A reply as text (both clients answer strings by default; a client made to answer buffers, bytes). */
function text(reply: unknown): string {
  return typeof reply === "string" ? reply : new TextDecoder().decode(reply as Uint8Array);
}

/** An entry from its field. */
function entryOf(name: string, json: string): JournalEntry {
  const { p, v, at } = JSON.parse(json) as Field;
  return { name, position: p, ...v === undefined ? {} : { value: v }, at };
}
