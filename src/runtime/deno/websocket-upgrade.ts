/**
 * Deno's WebSocket upgrade, `Deno.upgradeWebSocket`, behind a server's `fetch` (`Deno.serve`).
 *
 * @module
 */
import { type AcceptOptions, listen, type SocketEvents } from "../socket-events.ts";

interface DenoUpgrade {
  upgradeWebSocket(
    request: Request,
    options: { protocol?: string; idleTimeout?: number },
  ): { socket: WebSocket; response: Response };
}

/**
 * Accepts a WebSocket with `Deno.upgradeWebSocket`, where it exists.
 *
 * @param request The upgrade request.
 * @param events What to do with the socket's events.
 * @param options The subprotocol selected, and the keep-alive timeout.
 * @returns The 101 answer, or `undefined` when this is not Deno.
 */
export function upgradeOnDeno(request: Request, events: SocketEvents, options: AcceptOptions): Response | undefined {
  const deno = (globalThis as { Deno?: DenoUpgrade }).Deno;
  if (deno?.upgradeWebSocket === undefined) return undefined;
  const { socket, response } = deno.upgradeWebSocket(request, {
    protocol: options.protocol,
    idleTimeout: options.idleTimeoutS,
  });
  listen(socket, events);
  return response;
}
