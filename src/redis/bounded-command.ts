/**
 * Redis commands that never wait unbounded: a command fails at once while the client reconnects, and
 * one with no reply within a bound fails too. A client that still says it is ready after a timeout
 * sits on a dead connection (seen on Deno after `kill -9` of Redis: the reset socket never reports
 * its close, so node-redis neither fails its commands nor reconnects); it is reopened, once at a time.
 *
 * @module
 */

/** What the guard needs of a node-redis client, all optional (a client of another shape is used as is). */
export interface RedisConnectionLike {
  /** Whether the connection is up (node-redis: `false` while it reconnects). */
  readonly isReady?: boolean;
  /** Closes the connection at once. */
  destroy?(): void;
  /** Opens it again. */
  connect?(): Promise<unknown>;
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
    if (reopening !== undefined || client.destroy === undefined || client.connect === undefined) return;
    client.destroy();
    reopening = client.connect().catch(() => {}).finally(() => reopening = undefined);
  };
  return async (command) => {
    if (client.isReady === false || reopening !== undefined) {
      throw new Error("Redis is not connected (the client is reconnecting)");
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        if (client.isReady === true) reopen();
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
