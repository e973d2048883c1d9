/**
 * A `Notifier` on a Cloudflare Durable Object: list_changed and resource-updated notifications raised on any
 * isolate of a Worker reach the listening streams held by every isolate.
 *
 * @module
 */
import type { Notifier } from "../core/instance/notifier.ts";
import { capability } from "../server/server-capability.ts";
import type { PairedWebSocket } from "../runtime/workers/websocket-pair.ts";
import type { DurableObjectNamespaceLike } from "./namespace-like.ts";
import { NOTIFIER_URL } from "./object-protocol.ts";
import { requestRelay } from "./request-relay.ts";

/** The first wait before a lost subscription opens again, and the longest (it doubles in between). */
const RETRY_MS = { first: 500, most: 30_000 };

/**
 * The options of {@link durableObjectNotifier}.
 *
 * @example
 * ```ts
 * import type { DurableObjectNotifierOptions } from "@mcplite/sdk/durable-object";
 * // A server that must not hear the other servers of the Worker's namespace.
 * const options: DurableObjectNotifierOptions = { channel: "billing:notifications" };
 * ```
 */
export interface DurableObjectNotifierOptions {
  /** The object's name (default `"mcplite:notifications"`): the servers that share it hear each other. */
  readonly channel?: string;
}

/**
 * Creates a notifier on Durable Objects: one `ResultObject` per channel (named by `channel`) holds a WebSocket
 * for each listening stream of every isolate (MCP `subscriptions/listen`), and sends each published message to
 * all of them. Workers forbid a request to use another request's WebSocket or stream, so the server subscribes
 * once per listening stream, from its request, and publishes each change from the request that raised it; the
 * stream's acknowledgement comes once it is subscribed. A stream that ends closes its socket, and the object
 * forgets it. A socket the object lost (it restarted, a deploy) is opened again, after 0.5 s and up to 30 s
 * between tries, its loss told to `onError` once; what was published meanwhile is not heard, as with Redis
 * pub/sub. On Workers only: it needs a Durable Object stub and Workers' WebSockets.
 *
 * @param namespace The Worker's Durable Object namespace binding whose class is `ResultObject` (the result
 *   store's, `env.MCPLITE_RESULTS`; at module scope, `import { env } from "cloudflare:workers"`).
 * @param options The channel.
 * @returns The notifier, for `createServer({ notifier })`.
 *
 * @example
 * ```ts ignore
 * import { env } from "cloudflare:workers";
 * import { createServer } from "@mcplite/sdk";
 * import { durableObjectNotifier, durableObjectResultStore } from "@mcplite/sdk/durable-object";
 * export { ResultObject } from "@mcplite/sdk/durable-object"; // bound as MCPLITE_RESULTS in wrangler.jsonc
 *
 * const server = createServer({
 *   name: "app",
 *   version: "1.0.0",
 *   resultStore: durableObjectResultStore(env.MCPLITE_RESULTS),
 *   notifier: durableObjectNotifier(env.MCPLITE_RESULTS),
 * });
 * export default server;
 * ```
 */
export function durableObjectNotifier<Id>(
  namespace: DurableObjectNamespaceLike<Id>,
  options: DurableObjectNotifierOptions = {},
): Notifier {
  const channel = options.channel ?? "mcplite:notifications";
  // A stub per request: a stub made while handling one request is that request's I/O object.
  const object = () => namespace.get(namespace.idFromName(channel));
  const connect = async (): Promise<PairedWebSocket> => {
    const response = await object().fetch(NOTIFIER_URL, { headers: { upgrade: "websocket" } });
    const socket = (response as Response & { webSocket?: PairedWebSocket | null }).webSocket;
    if (socket == null) {
      throw new Error(`the notifier's Durable Object answered ${response.status}, not a WebSocket`);
    }
    socket.accept();
    return socket;
  };
  return {
    relay: capability("relay", requestRelay),
    async publish(message) {
      const response = await object().fetch(NOTIFIER_URL, { method: "POST", body: message });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`the notifier's Durable Object answered ${response.status}`);
    },
    async subscribe(listener, onError) {
      let stopped = false;
      let socket: WebSocket | undefined;
      let retryMs = RETRY_MS.first;
      let healthy = true;
      const lost = (error: unknown) => {
        if (stopped) return;
        if (healthy) onError?.(error);
        healthy = false;
        setTimeout(() => open().catch(lost), retryMs);
        retryMs = Math.min(retryMs * 2, RETRY_MS.most);
      };
      const open = async () => {
        const opened = await connect();
        if (stopped) return opened.close(1000);
        socket = opened;
        healthy = true;
        retryMs = RETRY_MS.first;
        opened.addEventListener("message", (event) => listener(String(event.data)));
        opened.addEventListener("close", (event) => {
          lost(new Error(`the notifier's Durable Object closed its WebSocket (${event.code})`));
        });
      };
      await open();
      return () => {
        stopped = true;
        socket?.close(1000);
        return Promise.resolve();
      };
    },
  };
}
