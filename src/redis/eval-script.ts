/**
 * `EVAL` on either Redis client: the one command beside `GET` and `DEL` the stores ask of a client.
 *
 * @module
 */
import { isIoRedis } from "./bounded-command.ts";
import type { RedisClientLike } from "./redis-client-like.ts";

/**
 * Runs a Lua script in the call shape of the client at hand: node-redis takes the keys and arguments as options,
 * ioredis after the number of keys.
 *
 * @param client The client.
 * @param script The script.
 * @param keys Its `KEYS`.
 * @param args Its `ARGV`.
 * @returns The script's reply.
 */
export function evalScript(client: RedisClientLike, script: string, keys: string[], args: string[]): Promise<unknown> {
  if (isIoRedis(client)) {
    return (client.eval as (script: string, numkeys: number, ...rest: string[]) => Promise<unknown>).call(
      client,
      script,
      keys.length,
      ...keys,
      ...args,
    );
  }
  return (client.eval as (script: string, options: { keys: string[]; arguments: string[] }) => Promise<unknown>).call(
    client,
    script,
    { keys, arguments: args },
  );
}
