/**
 * Bun's WebSocket upgrade: `Bun.serve` upgrades through its `server.upgrade()` and delivers each
 * socket's events to its `websocket` handlers, not to the socket; {@link bunWebSocket} lends the
 * request that upgrade and hands the events to the route that accepted.
 *
 * @module
 */
import { lendUpgrade, type SocketEvents, tookOver } from "../socket-events.ts";

/** What `Bun.serve` takes to serve a server with its WebSocket routes: spread it into its options. */
export interface BunWebSocketOptions {
  /** Answers requests; a WebSocket route's upgrade goes through Bun's `server.upgrade()`. */
  fetch(
    request: Request,
    server: { upgrade(request: Request, options: { data: unknown; headers: Record<string, string> }): boolean },
  ): Response | undefined | Promise<Response | undefined>;
  /** The handlers that hand each socket's events to the route that accepted it. */
  readonly websocket: {
    open(socket: {
      readonly data: unknown;
      /** Answers the bytes sent, -1 when queued, 0 when dropped (past Bun's `backpressureLimit`). */
      send(data: string): number;
      getBufferedAmount(): number;
      close(code?: number, reason?: string): void;
      /** Drops the connection without the closing handshake (Bun 1.1 and later). */
      terminate?(): void;
    }): void;
    message(socket: { readonly data: unknown }, message: string | Uint8Array): void;
    close(socket: { readonly data: unknown }, code: number, reason: string): void;
  };
}

/**
 * `Bun.serve` options that serve an app (a `Server`, or any `{ fetch }`) with its WebSocket routes
 * (`webSocketBinding()` from `@mcplite/sdk/websocket`). `serve()` uses them on Bun; with a bare
 * `Bun.serve`, spread them into its options.
 *
 * @param app The server.
 * @returns `fetch` and `websocket` for `Bun.serve`.
 *
 * @example
 * ```ts ignore
 * import { createServer } from "@mcplite/sdk";
 * import { bunWebSocket, webSocketBinding } from "@mcplite/sdk/websocket";
 *
 * const server = createServer({ name: "demo", version: "1.0.0", bindings: [webSocketBinding()] });
 * Bun.serve({ port: 8000, ...bunWebSocket(server) });
 * ```
 */
export function bunWebSocket(
  app: { fetch(request: Request): Response | Promise<Response> },
): BunWebSocketOptions {
  return {
    fetch(request, server) {
      // Only a GET can upgrade (RFC 6455 §4.1): MCP and MCP-lite POSTs pay nothing.
      if (request.method !== "GET") return app.fetch(request);
      lendUpgrade(request, (data, { headers }) => server.upgrade(request, { data, headers }));
      return Promise.resolve(app.fetch(request)).then((response) => tookOver(response) ? undefined : response);
    },
    websocket: {
      open: (socket) => {
        // Bun drops a frame past its `backpressureLimit` (send answers 0): count it as queued without bound.
        let dropped = false;
        (socket.data as SocketEvents).open({
          send: (text) => void (dropped ||= socket.send(text) === 0),
          get bufferedAmount() {
            return dropped ? Infinity : socket.getBufferedAmount();
          },
          close: (code, reason) => socket.close(code, reason),
          terminate: () => socket.terminate?.(),
        });
      },
      message: (socket, message) => (socket.data as SocketEvents).message(message),
      close: (socket, code, reason) => (socket.data as SocketEvents).close(code, reason),
    },
  };
}
