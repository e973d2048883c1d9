/**
 * `createWebSocketTransport()`: the client speaks MCP-lite over a WebSocket (MCP-lite spec v0.042
 * §8.2) to a server with `webSocketBinding()`: one socket for every request, many at once, streaming
 * with `client.stream()`, cancellation with an abort signal.
 *
 * @module
 */
import type { Transport } from "../transport.ts";
import { createMcpliteTransport, MCPLITE_BASE_PATH } from "./mcplite.ts";
import { WebSocketConnection } from "./websocket-connection.ts";
import { peerOf, withPeer } from "../trace-context.ts";

/** Options of {@link createWebSocketTransport}. */
export interface WebSocketTransportOptions {
  /** A bearer token, sent as the subprotocol `base64url.bearer.authorization.mcp-lite.<token>` (browsers cannot set headers). */
  readonly token?: string;
  /** How long opening the socket may take, in ms (default 10 000). */
  readonly connectTimeoutMs?: number;
}

/** The requests' origin: nothing is fetched, the URL only tells MCP-lite's paths apart. */
const BASE = "http://websocket.invalid";

/**
 * Creates a transport over a WebSocket. The socket opens on the first request and stays open;
 * `client.close()` closes it. A socket that closes fails the calls in flight; the next request opens
 * a new one.
 *
 * @param url The socket's URL, e.g. `ws://127.0.0.1:8000/mcp-lite/v1/ws`.
 * @param options A bearer token, the connect timeout.
 * @returns The transport, for `createClient(transport)`.
 * @throws {TypeError} For a URL that is not `ws:` or `wss:`.
 *
 * @example
 * ```ts ignore
 * import { createClient } from "@mcplite/sdk/client";
 * import { createWebSocketTransport } from "@mcplite/sdk/client/websocket";
 *
 * const client = createClient(createWebSocketTransport("ws://127.0.0.1:8000/mcp-lite/v1/ws"));
 * console.log(await client.call("add", { a: 2, b: 3 }));
 * await client.close();
 * ```
 */
export function createWebSocketTransport(url: string | URL, options: WebSocketTransportOptions = {}): Transport {
  const target = new URL(url);
  if (target.protocol !== "ws:" && target.protocol !== "wss:") {
    throw new TypeError(`createWebSocketTransport needs a ws: or wss: URL, not ${target.protocol}`);
  }
  let connection: Promise<WebSocketConnection> | undefined;
  const connect = (): Promise<WebSocketConnection> => {
    if (connection !== undefined) return connection;
    const open = WebSocketConnection.open(target.href, options.token, options.connectTimeoutMs ?? 10_000);
    connection = open;
    // A socket that closed, or never opened, is forgotten: the next request opens a new one.
    const forget = () => void (connection === open && (connection = undefined));
    open.then((opened) => opened.closed.then(forget), forget);
    return open;
  };
  const inner = createMcpliteTransport(BASE + MCPLITE_BASE_PATH, {
    fetch: async (request) => (await connect()).fetch(request),
  });
  // Telemetry names the socket's peer, not the placeholder origin the requests are built on.
  return Object.assign(withPeer(inner, peerOf(target)), {
    async close(): Promise<void> {
      const open = connection;
      connection = undefined;
      await (await open?.catch(() => undefined))?.close();
    },
  });
}
