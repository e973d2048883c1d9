/**
 * `createWebSocketTransport()`: the client speaks MCP-lite over a WebSocket (MCP-lite spec v0.042
 * §8.2) to a server with `webSocketBinding()`: one socket for every request, many at once, streaming
 * with `client.stream()`, cancellation with an abort signal.
 *
 * @module
 */
import { responseBound } from "../response-bound.ts";
import type { ClientAuth, FetchLike } from "../http.ts";
import type { Transport } from "../transport.ts";
import type { MessageMiddleware } from "../../message-middleware/message-middleware.ts";
import { createMcpliteMessageTransport, MCPLITE_BASE_PATH } from "./mcplite.ts";
import { WebSocketConnection } from "./websocket-connection.ts";
import { peerOf, withPeer } from "../carry-trace.ts";

/** Options of {@link createWebSocketTransport}. */
export interface WebSocketTransportOptions {
  /** A bearer token, sent as the subprotocol `base64url.bearer.authorization.mcp-lite.<token>` (browsers cannot set headers). */
  readonly token?: string;
  /**
   * Authorization for the upgrade: `oauth()`, `clientCredentials()`, `enterpriseAuth()`,
   * `workloadIdentity()`, with `dpop` too. The upgrade request carries `Authorization` (and the `DPoP`
   * proof of a `GET` to the socket's `http(s)` URL, RFC 9449 §4.2) as headers, which Bun, Deno and Node
   * send and browsers cannot. A refused upgrade tells no status, so it counts as a 401: discovery and the
   * grant run, and the upgrade is tried once more with the new token.
   */
  readonly auth?: ClientAuth;
  /** How long opening the socket may take, in ms (default 10 000). */
  readonly connectTimeoutMs?: number;
  /**
   * The most bytes one message from the server may hold (default 16 MiB): past it the socket is closed
   * and its calls fail with `payload_too_large`. The runtime receives a message whole before the client
   * sees it, so this bounds what the client keeps and parses, not what the socket reads.
   */
  readonly maxResponseBytes?: number;
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
  const maxMessageBytes = responseBound(options.maxResponseBytes);
  let connection: Promise<WebSocketConnection> | undefined;
  let chain: readonly MessageMiddleware[] | undefined;
  const connect = (): Promise<WebSocketConnection> => {
    if (connection !== undefined) return connection;
    const timeoutMs = options.connectTimeoutMs ?? 10_000;
    const open =
      (options.auth === undefined
        ? WebSocketConnection.open(target.href, options.token, timeoutMs, undefined, maxMessageBytes)
        : openAuthorized(target, options.auth, timeoutMs, maxMessageBytes)).then((opened) => {
          if (chain !== undefined) opened.intercept(chain, "websocket");
          return opened;
        });
    connection = open;
    // A socket that closed, or never opened, is forgotten: the next request opens a new one.
    const forget = () => void (connection === open && (connection = undefined));
    open.then((opened) => opened.closed.then(forget), forget);
    return open;
  };
  const inner = createMcpliteMessageTransport(
    BASE + MCPLITE_BASE_PATH,
    async (request) => (await connect()).fetch(request),
  );
  // Telemetry names the socket's peer, not the placeholder origin the requests are built on.
  return Object.assign(withPeer(inner, peerOf(target)), {
    intercept(middleware: readonly MessageMiddleware[]): void {
      chain = middleware;
    },
    async close(): Promise<void> {
      const open = connection;
      connection = undefined;
      await (await open?.catch(() => undefined))?.close();
    },
  });
}

/**
 * Opens the socket through a {@link ClientAuth}: the upgrade is a `GET` to the socket's `http(s)` URL
 * (what the server's request URL is, and the proof's `htu`), sent by opening the socket with the
 * request's `Authorization` and `DPoP` headers; every other request (discovery, tokens) is a fetch.
 */
async function openAuthorized(
  target: URL,
  auth: ClientAuth,
  timeoutMs: number,
  maxMessageBytes: number,
): Promise<WebSocketConnection> {
  const upgrade = new URL(target);
  upgrade.protocol = target.protocol === "wss:" ? "https:" : "http:";
  let opened: WebSocketConnection | undefined;
  let failure: unknown;
  const send: FetchLike = async (request) => {
    if (request.url !== upgrade.href || request.headers.get("upgrade") !== "websocket") return await fetch(request);
    const headers: Record<string, string> = {};
    for (const name of ["authorization", "dpop"]) {
      const value = request.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    try {
      opened = await WebSocketConnection.open(target.href, undefined, timeoutMs, headers, maxMessageBytes);
      return new Response(null, { status: 204 });
    } catch (error) {
      failure = error;
      // A refused upgrade shows no headers to a WebSocket API: the same request as a fetch reads the
      // challenge (`WWW-Authenticate`, `DPoP-Nonce`, RFC 9449 §9), for the auth to answer it.
      const asked = await fetch(new Request(upgrade, { headers })).catch(() => undefined);
      if (asked !== undefined && (asked.status === 401 || asked.status === 403)) return asked;
      await asked?.body?.cancel().catch(() => {});
      return new Response(null, { status: 401 });
    }
  };
  const response = await auth.wrap(send)(new Request(upgrade, { headers: { upgrade: "websocket" } }));
  if (opened !== undefined) return opened;
  await response.body?.cancel().catch(() => {});
  throw failure ?? new Error(`the WebSocket at ${target.href} did not open (HTTP ${response.status})`);
}
