/**
 * Lua scripts on either Redis client: the one command beside `GET` and `DEL` the stores ask of a client. A script
 * goes by its SHA-1 (`EVALSHA`) once Redis holds it, its text sent again only when Redis answers `NOSCRIPT` (a
 * restarted or flushed Redis, another node), as Redis's own docs advise ("Script cache", EVALSHA).
 *
 * @module
 */
import { isIoRedis } from "./bounded-command.ts";
import type { RedisClientLike } from "./redis-client-like.ts";

/** Each script's SHA-1 in hex, as `EVALSHA` names it: computed once per script and process. */
const digests = new Map<string, string>();

/** Redis's answer to `EVALSHA` of a script it does not hold. */
const NOSCRIPT = /^NOSCRIPT\b/;

/**
 * Runs a Lua script in the call shape of the client at hand: node-redis takes the keys and arguments as options,
 * ioredis after the number of keys. By its SHA-1 when the client sends `EVALSHA`; by its text (`EVAL`, which also
 * has Redis hold it) the first time, when Redis does not hold it, and on a client without `EVALSHA`.
 *
 * @param client The client.
 * @param script The script.
 * @param keys Its `KEYS`.
 * @param args Its `ARGV`.
 * @returns The script's reply.
 */
export async function evalScript(
  client: RedisClientLike,
  script: string,
  keys: string[],
  args: string[],
): Promise<unknown> {
  const sha = digests.get(script);
  if (sha !== undefined && (client.evalsha ?? client.evalSha) !== undefined) {
    try {
      return await (isIoRedis(client) && client.evalsha !== undefined
        ? client.evalsha(sha, keys.length, ...keys, ...args)
        : client.evalSha!(sha, { keys, arguments: args }));
    } catch (error) {
      if (!(error instanceof Error && NOSCRIPT.test(error.message))) throw error;
    }
  }
  const reply = await evalText(client, script, keys, args);
  if (sha === undefined) digests.set(script, await sha1(script)); // after EVAL: Redis holds it now
  return reply;
}

/** `EVAL` with the script's text. */
function evalText(client: RedisClientLike, script: string, keys: string[], args: string[]): Promise<unknown> {
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

/** The SHA-1 of a script's UTF-8 bytes, in lowercase hex, as Redis names scripts. */
async function sha1(script: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", new TextEncoder().encode(script)));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
