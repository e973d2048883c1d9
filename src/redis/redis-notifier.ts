/**
 * A `Notifier` on Redis pub/sub: list_changed and resource-updated notifications raised on any
 * instance reach the listeners held by every instance using the same Redis.
 *
 * @module
 */
import type { Notifier } from "../core/instance/notifier.ts";
import { isIoRedis } from "./bounded-command.ts";

/**
 * What the notifier needs of a Redis client: `PUBLISH`, and a second connection to subscribe on (Redis gives a
 * subscribed connection to pub/sub alone), made by `duplicate()`. A connected client of npm `redis` (node-redis
 * 5) or of npm `ioredis` (and its forks, such as iovalkey).
 */
export interface RedisPubSubClientLike {
  /** ioredis: the connection's state; node-redis has none (how the notifier tells the two apart). */
  readonly status?: string;
  /** `PUBLISH channel message`. */
  publish(channel: string, message: string): Promise<unknown>;
  /**
   * A new client with the same options.
   *
   * node-redis: not yet connected; it needs an `error` listener before it connects (node-redis emits `error` on
   * every failed (re)connection, and an emitter with no `error` listener throws, which exits the process:
   * Node's `EventEmitter`). Connected, it is the subscriber: `SUBSCRIBE channel` calling `listener` with each
   * message, `UNSUBSCRIBE` for that listener, `destroy()` at once.
   *
   * ioredis: connecting already (unless made with `lazyConnect`); `SUBSCRIBE channel` and `UNSUBSCRIBE channel`,
   * each message a `message` event, resubscribed on its own after a reconnection; `disconnect()` closes it.
   */
  duplicate:
    | (() => {
      on(event: "error" | "ready", listener: (error?: unknown) => void): unknown;
      connect(): Promise<{
        subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
        unsubscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
        destroy(): void;
      }>;
    })
    | (() => {
      readonly status: string;
      // deno-lint-ignore no-explicit-any -- ioredis's events pass their own arguments (`message`: channel, text)
      on(event: "error" | "ready" | "message", listener: (...args: any[]) => void): unknown;
      connect(): Promise<unknown>;
      subscribe(channel: string): Promise<unknown>;
      unsubscribe(channel: string): Promise<unknown>;
      disconnect(): void;
    });
}

/** A subscribing connection of either client: one listener at a time per call, as node-redis takes them. */
interface Subscriber {
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  destroy(): void;
}

/** Options of {@link redisNotifier}. */
export interface RedisNotifierOptions {
  /** The channel (default `"mcplite:notifications"`); instances of one server share it. */
  channel?: string;
}

/**
 * Creates a notifier on Redis pub/sub. It publishes on `client` and subscribes on a second connection
 * it opens with `client.duplicate()` at the first subscription (Redis reserves a subscribed connection
 * for pub/sub); `close()` closes that one. That connection reconnects on its own (node-redis and ioredis back
 * off and subscribe again); its errors reach the `onError` given to `subscribe` (the server's), once per
 * outage.
 *
 * @param client A connected node-redis or ioredis client.
 * @param options The channel.
 * @returns The notifier, for `createServer({ notifier })`.
 *
 * @example
 * ```ts ignore
 * import { createClient } from "redis";
 * import { createServer } from "@mcplite/sdk";
 * import { redisNotifier, redisResultStore } from "@mcplite/sdk/redis";
 * const redis = await createClient({ url: "redis://127.0.0.1:6379" })
 *   .on("error", () => {}) // outages reach the server's onError through the store, once each
 *   .connect();
 * const server = createServer({
 *   name: "app",
 *   version: "1.0.0",
 *   resultStore: redisResultStore(redis),
 *   notifier: redisNotifier(redis),
 * });
 * ```
 */
export function redisNotifier(
  client: RedisPubSubClientLike,
  options: RedisNotifierOptions = {},
): Notifier & { close(): void } {
  const channel = options.channel ?? "mcplite:notifications";
  let subscriber: Promise<Subscriber> | undefined;
  return {
    async publish(message) {
      await client.publish(channel, message);
    },
    async subscribe(listener, onError) {
      subscriber ??= connectSubscriber(client, onError);
      const connection = await subscriber;
      await connection.subscribe(channel, listener);
      return async () => {
        await connection.unsubscribe(channel, listener);
      };
    },
    close() {
      void subscriber?.then((connection) => connection.destroy(), () => {});
      subscriber = undefined;
    },
  };
}

/** node-redis's duplicate, not yet connected. */
type NodeRedisDuplicate = ReturnType<Exclude<RedisPubSubClientLike["duplicate"], () => { readonly status: string }>>;

/** ioredis's duplicate, connecting already. */
type IoRedisDuplicate = ReturnType<Extract<RedisPubSubClientLike["duplicate"], () => { readonly status: string }>>;

/** Opens the subscribing connection, listening to its errors: reported once until it is ready again. */
function connectSubscriber(client: RedisPubSubClientLike, onError?: (error: unknown) => void): Promise<Subscriber> {
  const connection = client.duplicate();
  let healthy = true;
  connection.on("error", (error?: unknown) => {
    if (healthy) onError?.(error);
    healthy = false;
  });
  connection.on("ready", () => healthy = true);
  return isIoRedis(client)
    ? ioRedisSubscriber(connection as IoRedisDuplicate)
    : (connection as NodeRedisDuplicate).connect();
}

/**
 * ioredis's subscriber in node-redis's call shape: ioredis subscribes a connection to a channel (one `message`
 * event for all), node-redis a listener; the channel is subscribed with its first listener and left with its last.
 */
async function ioRedisSubscriber(connection: IoRedisDuplicate): Promise<Subscriber> {
  const channels = new Map<string, { listeners: Set<(message: string) => void>; subscribed: Promise<unknown> }>();
  connection.on("message", (channel: string, message: string) => {
    for (const listener of channels.get(channel)?.listeners ?? []) listener(message);
  });
  if (connection.status === "wait") await connection.connect(); // made with lazyConnect
  return {
    async subscribe(channel, listener) {
      let entry = channels.get(channel);
      if (entry === undefined) {
        entry = { listeners: new Set(), subscribed: connection.subscribe(channel) };
        channels.set(channel, entry);
      }
      entry.listeners.add(listener);
      await entry.subscribed;
    },
    async unsubscribe(channel, listener) {
      const entry = channels.get(channel);
      if (entry === undefined || !entry.listeners.delete(listener) || entry.listeners.size > 0) return;
      channels.delete(channel);
      await connection.unsubscribe(channel);
    },
    destroy: () => connection.disconnect(),
  };
}
