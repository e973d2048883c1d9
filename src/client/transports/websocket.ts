/**
 * `createWebSocketTransport()`: the client speaks MCP-lite over a WebSocket (MCP-lite spec v0.042
 * §8.2) to a server with `webSocketBinding()`: one socket for every request, many at once, streaming
 * with `client.stream()`, cancellation with an abort signal.
 *
 * @module
 */
import type { Reply, RequestContext, ToolCallRequest, ToolListing, Transport } from "../transport.ts";
import { createMcpliteTransport, MCPLITE_BASE_PATH } from "./mcplite.ts";
import { WebSocketConnection } from "./websocket-connection.ts";

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
  return new WebSocketTransport(target.href, options);
}

class WebSocketTransport implements Transport {
  readonly #url: string;
  readonly #options: WebSocketTransportOptions;
  readonly #inner: Transport;
  #connection: Promise<WebSocketConnection> | undefined;

  constructor(url: string, options: WebSocketTransportOptions) {
    this.#url = url;
    this.#options = options;
    const fetch = async (request: Request) => (await this.#connect()).fetch(request);
    this.#inner = createMcpliteTransport(BASE + MCPLITE_BASE_PATH, { fetch });
  }

  get wire(): string {
    return this.#inner.wire;
  }

  listTools(ctx: RequestContext): Promise<ToolListing> {
    return this.#inner.listTools(ctx);
  }

  callTool(call: ToolCallRequest, ctx: RequestContext): Promise<Reply> {
    return this.#inner.callTool(call, ctx);
  }

  async close(): Promise<void> {
    const connecting = this.#connection;
    this.#connection = undefined;
    const connection = await connecting?.catch(() => undefined);
    await connection?.close();
  }

  #connect(): Promise<WebSocketConnection> {
    if (this.#connection !== undefined) return this.#connection;
    const open = WebSocketConnection.open(this.#url, this.#options.token, this.#options.connectTimeoutMs ?? 10_000);
    this.#connection = open;
    // A socket that closed, or never opened, is forgotten: the next request opens a new one.
    const forget = () => void (this.#connection === open && (this.#connection = undefined));
    open.then((connection) => connection.closed.then(forget), forget);
    return open;
  }
}
