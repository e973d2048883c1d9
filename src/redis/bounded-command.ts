/**
 * Redis commands that never wait unbounded: a command fails at once while the client reconnects, and
 * one with no reply within a bound fails too. A client that still says it is ready after a timeout
 * sits on a dead connection (seen on Deno after `kill -9` of Redis: the reset socket never reports
 * its close, so node-redis neither fails its commands nor reconnects); it is reopened, once at a time.
 * The client's first connection is the exception: a process makes its client as it starts, and its first
 * requests come while that client still connects, so they wait for it, within the same bound, once.
 *
 * @module
 */

import type { RedisClientLike } from "./redis-client-like.ts";

/**
 * What the guard reads of a client, all optional (a client of another shape is used as is): node-redis 5
 * says it is up with `isReady` and reopens with `destroy()` then `connect()`; ioredis says it with
 * `status` (`"ready"`) and reopens with `disconnect(true)`, saying `ready` again once it has.
 */
export type RedisConnectionLike = Pick<
  RedisClientLike,
  "isReady" | "status" | "destroy" | "connect" | "disconnect" | "once"
>;

/** Whether the client is ioredis (or a fork of it, such as iovalkey): it has a `status` of its own. */
export function isIoRedis(client: object): boolean {
  return typeof (client as RedisConnectionLike).status === "string";
}

/** Whether the client says it is up: `undefined` when it says nothing. */
function readiness(client: RedisConnectionLike): boolean | undefined {
  return isIoRedis(client) ? client.status === "ready" : client.isReady;
}

/**
 * Runs commands on `client` within `timeoutMs` each.
 *
 * @param client The client.
 * @param timeoutMs The longest wait for a reply.
 * @returns The runner of one command.
 */
export function boundedCommands(
  client: RedisConnectionLike,
  timeoutMs: number,
): <T>(command: () => Promise<T>) => Promise<T> {
  let reopening: Promise<unknown> | undefined;
  const reopen = () => {
    if (reopening !== undefined) return;
    if (isIoRedis(client) && client.disconnect !== undefined && client.once !== undefined) {
      const once = client.once.bind(client);
      reopening = new Promise<void>((resolve) => once("ready", resolve)).finally(() => reopening = undefined);
      client.disconnect(true);
    } else if (client.destroy !== undefined && client.connect !== undefined) {
      client.destroy();
      reopening = client.connect().catch(() => {}).finally(() => reopening = undefined);
    }
  };
  // The first connection is waited for once (by every command that comes meanwhile): `true` once it is up,
  // `false` when it was not within `timeoutMs`. Once that wait ended, or the client was seen ready, a client
  // that is not ready is down or reconnecting, and a command fails at once.
  let settled = false;
  let first: Promise<boolean> | undefined;
  const firstConnection = () =>
    first ??= new Promise<boolean>((resolve) => {
      if (client.once === undefined) return resolve(false);
      const timer = setTimeout(() => resolve(false), timeoutMs);
      client.once("ready", () => {
        clearTimeout(timer);
        resolve(true);
      });
      // ioredis made with `lazyConnect` connects on its first command, which the guard would never send.
      if (isIoRedis(client) && client.status === "wait") client.connect?.().catch(() => {});
    }).finally(() => settled = true);
  return async (command) => {
    const ready = readiness(client);
    if (ready === false && !settled && reopening === undefined) {
      if (!(await firstConnection())) throw new Error(`Redis did not connect within ${timeoutMs} ms`);
    } else if (ready === false || reopening !== undefined) {
      throw new Error("Redis is not connected (the client is reconnecting)");
    } else settled = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        if (readiness(client) === true) reopen();
        reject(new Error(`Redis did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([command(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
}
