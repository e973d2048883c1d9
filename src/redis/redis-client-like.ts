/**
 * What the Redis store and its guard need of a Redis client (node-redis or ioredis): one declaration both read.
 *
 * @module
 */
/**
 * What the store needs of a Redis client: a connected client of npm `redis` (node-redis 5,
 * `createClient({ url }).connect()`) or of npm `ioredis` (`new Redis(url)`, BullMQ's client; its forks, such
 * as iovalkey, too). Replies are strings (both clients' default).
 */
export interface RedisClientLike {
  /** node-redis: whether the connection is up (`false` while it reconnects); the store's guard reads it. */
  readonly isReady?: boolean;
  /** ioredis: the connection's state (`"ready"` when up); the store's guard reads it. */
  readonly status?: string;
  /** node-redis: closes the connection at once, when a command outlives `timeoutMs`. */
  destroy?(): void;
  /** node-redis: opens it again; ioredis made with `lazyConnect`: opens it the first time. */
  connect?(): Promise<unknown>;
  /** ioredis: closes the connection and opens it again (`true`), when a command outlives `timeoutMs`. */
  disconnect?(reconnect?: boolean): void;
  /** Both clients: `ready` once, when the connection is up (the first time, or again). */
  once?(event: "ready", listener: () => void): unknown;
  /** `GET key`. */
  get(key: string): Promise<unknown>;
  /** `DEL key`. */
  del(key: string): Promise<unknown>;
  /**
   * `EVAL script numkeys key… arg…`: node-redis takes the keys and arguments as options, ioredis after the
   * number of keys.
   */
  eval:
    | ((script: string, options: { keys: string[]; arguments: string[] }) => Promise<unknown>)
    | ((script: string, numkeys: number, ...keysAndArguments: string[]) => Promise<unknown>);
}
