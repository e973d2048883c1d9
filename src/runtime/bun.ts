/**
 * `serve()` on Bun: `Bun.serve`, with the WebSocket handlers a route's upgrade needs ({@link bunWebSocket}).
 *
 * @module
 */
import { bunWebSocket, type BunWebSocketOptions } from "../server/upgrade.ts";
import type { Bound, Fetchable } from "../server/serve.ts";

interface BunLike {
  serve(
    options: BunWebSocketOptions & { port: number; hostname: string; idleTimeout?: number },
  ): { port: number; stop(force?: boolean): Promise<void> | void };
}

/**
 * Binds `app` with `Bun.serve`.
 *
 * @param app The fetch handler.
 * @param port The port (0: a free one).
 * @param hostname The interface.
 * @returns The bound server.
 */
export function listen(app: Fetchable, port: number, hostname: string): Promise<Bound> {
  const bun = (globalThis as unknown as { Bun: BunLike }).Bun;
  // Bun closes idle connections after 10 s by default; SSE streams send heartbeats, and this
  // raises the limit so a slow plain JSON call is not cut either. Bun hands a WebSocket's events
  // to the server's handlers, not to the socket: bunWebSocket() routes them to the route that upgraded.
  const server = bun.serve({ port, hostname, ...bunWebSocket(app), idleTimeout: 255 });
  return Promise.resolve({
    port: server.port,
    close: async () => {
      await server.stop(true);
    },
  });
}
