/**
 * `serve()` on Bun: `Bun.serve`, with the WebSocket handlers a route's upgrade needs ({@link bunWebSocket}).
 *
 * @module
 */
import { bunWebSocket, type BunWebSocketOptions } from "./websocket-upgrade.ts";
import type { Bound, Fetchable, Lent, ListenAt } from "../listen-types.ts";

interface BunLike {
  serve(
    options: BunWebSocketOptions & {
      port: number;
      hostname: string;
      idleTimeout?: number;
      maxRequestBodySize?: number;
      reusePort?: boolean;
    },
  ): { port: number; stop(force?: boolean): Promise<void> | void };
}

/**
 * Binds `app` with `Bun.serve`.
 *
 * @param app The fetch handler.
 * @param at The port (0: a free one), the interface, and whether to share the port (`SO_REUSEPORT`).
 * @param lent What it shares with the server (`serve()` lends it).
 * @returns The bound server.
 */
export function listen(app: Fetchable, at: ListenAt, lent: Lent): Promise<Bound> {
  const { port, hostname, reusePort } = at;
  const bun = (globalThis as unknown as { Bun: BunLike }).Bun;
  // Bun closes idle connections after 10 s by default; SSE streams send heartbeats, and this
  // raises the limit so a slow plain JSON call is not cut either. Bun hands a WebSocket's events
  // to the server's handlers, not to the socket: bunWebSocket() routes them to the route that upgraded.
  // A server that declares its body limit gets it as Bun's own (`maxRequestBodySize`: Bun answers 413
  // past it, a chunked body included), and its requests are marked so that a body without
  // Content-Length is read with Bun's arrayBuffer() instead of chunk by chunk (`body-bound.ts`).
  const limit = lent.bodyLimitOf(app);
  const options = bunWebSocket(app);
  const served = options.fetch;
  // Each request's server, which knows its client's address (for the per-caller budgets, `peer.ts`).
  options.fetch = (request, server) => {
    if (limit !== undefined) lent.markBounded(request);
    lent.recordPeer(request, server as never);
    return served(request, server);
  };
  const server = bun.serve({
    port,
    hostname,
    reusePort,
    ...options,
    idleTimeout: 255,
    ...(limit === undefined ? {} : { maxRequestBodySize: limit }),
  });
  return Promise.resolve({
    port: server.port,
    close: async () => {
      await server.stop(true);
    },
  });
}
