/**
 * A `Notifier` on Redis pub/sub: list_changed and resource-updated notifications raised on any
 * instance reach the listeners held by every instance using the same Redis.
 *
 * @module
 */
import type { Notifier } from "../core/notifier.ts";

/** What the notifier needs of a node-redis client: `PUBLISH`, and a second connection to subscribe on. */
export interface RedisPubSubClientLike {
  /** `PUBLISH channel message`. */
  publish(channel: string, message: string): Promise<unknown>;
  /**
   * A new client with the same options, not yet connected: it needs an `error` listener before it connects
   * (node-redis emits `error` on every failed (re)connection, and an emitter with no `error` listener throws, which
   * exits the process: Node's `EventEmitter`). Connected, it is the subscriber Redis gives to pub/sub alone:
   * `SUBSCRIBE channel` calling `listener` with each message, `UNSUBSCRIBE` for that listener, `destroy()` at once.
   */
  duplicate(): {
    on(event: "error" | "ready", listener: (error?: unknown) => void): unknown;
    connect(): Promise<{
      subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
      unsubscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
      destroy(): void;
    }>;
  };
}

/** A node-redis client not yet connected: {@link RedisPubSubClientLike.duplicate}'s. */
type RedisUnconnectedLike = ReturnType<RedisPubSubClientLike["duplicate"]>;

/** The connection a subscriber needs: Redis gives a subscribed connection to pub/sub alone. */
type RedisSubscriberLike = Awaited<ReturnType<RedisUnconnectedLike["connect"]>>;

/** Options of {@link redisNotifier}. */
export interface RedisNotifierOptions {
  /** The channel (default `"mcplite:notifications"`); instances of one server share it. */
  channel?: string;
}

/**
 * Creates a notifier on Redis pub/sub. It publishes on `client` and subscribes on a second connection
 * it opens with `client.duplicate()` at the first subscription (Redis reserves a subscribed connection
 * for pub/sub); `close()` closes that one. That connection reconnects on its own (node-redis backs off
 * and subscribes again); its errors reach the `onError` given to `subscribe` (the server's), once per
 * outage.
 *
 * @param client A connected node-redis client.
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
  let subscriber: Promise<RedisSubscriberLike> | undefined;
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

/** Opens the subscribing connection, listening to its errors: reported once until it is ready again. */
function connectSubscriber(
  client: RedisPubSubClientLike,
  onError?: (error: unknown) => void,
): Promise<RedisSubscriberLike> {
  const connection = client.duplicate();
  let healthy = true;
  connection.on("error", (error) => {
    if (healthy) onError?.(error);
    healthy = false;
  });
  connection.on("ready", () => healthy = true);
  return connection.connect();
}
