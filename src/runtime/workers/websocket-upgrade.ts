/**
 * A Worker's WebSocket upgrade (workerd): a `WebSocketPair`, the server's end accepted in place, the
 * client's end carried by the 101 answer (Cloudflare Workers docs, "WebSockets").
 *
 * @module
 */
import { type AcceptOptions, listen, type SocketEvents } from "../socket-events.ts";
import { webSocketPair } from "./websocket-pair.ts";

/**
 * Accepts a WebSocket with a `WebSocketPair`, where it exists.
 *
 * @param _request The upgrade request (workerd reads nothing of it).
 * @param events What to do with the socket's events.
 * @param options The subprotocol selected.
 * @returns The 101 answer, or `undefined` when this is not workerd.
 */
export function upgradeOnWorkers(
  _request: Request,
  events: SocketEvents,
  options: AcceptOptions,
): Response | undefined {
  const pair = webSocketPair();
  if (pair === undefined) return undefined;
  const server = pair[1];
  server.accept();
  listen(server, events);
  const headers: Record<string, string> = options.protocol === undefined
    ? {}
    : { "sec-websocket-protocol": options.protocol };
  return new Response(null, { status: 101, headers, webSocket: pair[0] } as ResponseInit);
}
