/**
 * The two Redis clients the Redis store and notifier take (`@mcplite/sdk/redis`): node-redis 5 (npm `redis`)
 * and ioredis (npm `ioredis`, BullMQ's client), each connected to a real redis-server the way its users connect
 * it, so that every Redis test runs once per client.
 */
import { Redis } from "ioredis";
import { createClient } from "redis";
import type { RedisClientLike, RedisPubSubClientLike } from "../../src/redis/mod.ts";

/** A connected client, as the tests use it. */
export interface TestRedisClient {
  /** The client, as a user hands it to `redisResultStore()` and `redisNotifier()`. */
  readonly client: RedisClientLike & RedisPubSubClientLike;
  /** How many connections are subscribed to `channel` (`PUBSUB NUMSUB`). */
  subscribers(channel: string): Promise<number>;
  /** Closes it at once. */
  close(): void;
}

/** One of the clients. */
export interface RedisClientKind {
  /** Its npm package. */
  readonly name: "node-redis" | "ioredis";
  /**
   * Connects to `url`, with the application's own `error` listener (node-redis exits the process without one).
   *
   * @param offlineQueue `false`: commands sent while disconnected fail at once instead of waiting.
   */
  connect(url: string, offlineQueue?: boolean): Promise<TestRedisClient>;
  /**
   * Makes a client the way a process starting up does: created, with the application's `error` listener, its
   * connection started and not waited for (node-redis: `connect()` not awaited; ioredis: `new Redis(url)`).
   */
  start(url: string): TestRedisClient;
}

/** node-redis 5 and ioredis. */
export const REDIS_CLIENTS: readonly RedisClientKind[] = [
  {
    name: "node-redis",
    async connect(url, offlineQueue = true) {
      const client = createClient({ url, disableOfflineQueue: !offlineQueue });
      client.on("error", () => {});
      await client.connect();
      return {
        client,
        subscribers: async (channel) => (await client.pubSubNumSub(channel))[channel],
        close: () => client.isOpen && client.destroy(),
      };
    },
    start(url) {
      const client = createClient({ url });
      client.on("error", () => {});
      client.connect().catch(() => {}); // a Redis that is down: its outage is the store's to report
      return {
        client,
        subscribers: async (channel) => (await client.pubSubNumSub(channel))[channel],
        close: () => client.isOpen && client.destroy(),
      };
    },
  },
  {
    name: "ioredis",
    async connect(url, offlineQueue = true) {
      const client = new Redis(url, { lazyConnect: true, enableOfflineQueue: offlineQueue });
      client.on("error", () => {});
      await client.connect();
      return {
        client,
        subscribers: async (channel) => Number(((await client.pubsub("NUMSUB", channel)) as unknown[])[1]),
        close: () => client.disconnect(),
      };
    },
    start(url) {
      const client = new Redis(url);
      client.on("error", () => {});
      return {
        client,
        subscribers: async (channel) => Number(((await client.pubsub("NUMSUB", channel)) as unknown[])[1]),
        close: () => client.disconnect(),
      };
    },
  },
];
