/**
 * The shared store on Redis (`SharedStore`), which `redisResultStore()` is a view of: a record is a string key,
 * `E` (final) or `R` before its JSON, expiring with `PX`; each conditional write is one Lua script, which Redis runs
 * without interleaving other commands (Redis docs, "Scripting with Lua"); a set is a Redis set beside the records.
 *
 * @module
 */
import { boundedCommands } from "./bounded-command.ts";
import type { RedisClientLike } from "./redis-client-like.ts";
import { evalScript } from "./eval-script.ts";
import type { SharedStore } from "../store/shared-store.ts";

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /** The prefix of every key (default `"mcplite:result:"`). */
  readonly prefix?: string;
  /** The most bytes of one record's JSON (default 1 MiB); a larger one is refused with a `RangeError`. */
  readonly maxBytes?: number;
  /** The longest wait for Redis to answer one command, in ms (default 2 000): see `redisResultStore()`. */
  readonly timeoutMs?: number;
}

/** Marks a record that is final (`E`, for "ended", as job entries were first written) or not (`R`). */
const FINAL = "E";
const REPLACEABLE = "R";

/** ARGV[1] the value, ARGV[2] its lifetime: written unless a final record stands. */
const PUT = `local v = redis.call('GET', KEYS[1])
if v and string.sub(v, 1, 1) == '${FINAL}' then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

/** Written where no record stands (`SET … NX`, through the one command both clients are asked for: `EVAL`). */
const PUT_IF_ABSENT = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0`;

/**
 * ARGV[1] the JSON expected (`""`: none), ARGV[2] the next value, ARGV[3] its lifetime: written while the record is
 * not final and its JSON is the one expected. The JSON compared is the text this store wrote: `JSON.stringify` of
 * what `get()` parsed from it is that text again.
 */
const COMPARE_AND_SET = `local v = redis.call('GET', KEYS[1])
if v then
  if string.sub(v, 1, 1) == '${FINAL}' or string.sub(v, 2) ~= ARGV[1] then return 0 end
elseif ARGV[1] ~= '' then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
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
const text = (value: unknown) => typeof value === "string" ? value : new TextDecoder().decode(value as Uint8Array);

/**
 * Creates the shared store on Redis: records at `<prefix><key>`, sets at `<prefix>set:<key>`. Outages and hung
 * commands behave as `redisResultStore()` describes.
 *
 * @param client A node-redis or ioredis client, connected or connecting.
 * @param options The key prefix, the bound on one record, the wait for one command.
 * @returns The store.
 */
export function redisStore(client: RedisClientLike, options: RedisStoreOptions = {}): SharedStore {
  const prefix = options.prefix ?? "mcplite:result:";
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const run = boundedCommands(client, options.timeoutMs ?? 2_000);
  const json = (value: unknown) => {
    const written = JSON.stringify(value);
    const size = utf8.encode(written).length;
    if (size > maxBytes) throw new RangeError(`a record of ${size} bytes exceeds the store's limit of ${maxBytes}`);
    return written;
  };
  const ms = (ttlMs: number) => String(Math.max(1, Math.ceil(ttlMs)));
  const script = async (lua: string, key: string, args: string[]) =>
    Number(await run(() => evalScript(client, lua, [key], args))) === 1;
  return {
    async get(key) {
      const value = await run(() => client.get(prefix + key));
      return value === null || value === undefined ? undefined : JSON.parse(text(value).slice(1));
    },
    async put(key, value, ttlMs, options) {
      const marked = (options?.final === true ? FINAL : REPLACEABLE) + json(value);
      return await script(PUT, prefix + key, [marked, ms(ttlMs)]);
    },
    async putIfAbsent(key, value, ttlMs) {
      return await script(PUT_IF_ABSENT, prefix + key, [REPLACEABLE + json(value), ms(ttlMs)]);
    },
    async compareAndSet(key, expected, next, ttlMs) {
      const was = expected === undefined ? "" : JSON.stringify(expected);
      return await script(COMPARE_AND_SET, prefix + key, [was, REPLACEABLE + json(next), ms(ttlMs)]);
    },
    async delete(key) {
      await run(() => client.del(prefix + key));
    },
    async addMember(key, member, ttlMs) {
      await script(ADD_MEMBER, `${prefix}set:${key}`, [member, ms(ttlMs)]);
    },
    async removeMember(key, member) {
      await run(() => evalScript(client, REMOVE_MEMBER, [`${prefix}set:${key}`], [member]));
    },
    async members(key) {
      const members = await run(() => evalScript(client, MEMBERS, [`${prefix}set:${key}`], []));
      return (members as unknown[]).map(text);
    },
  };
}
