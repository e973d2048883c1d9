/**
 * Accepting a WebSocket (RFC 6455) on the runtime at hand, behind a server's `fetch`: Deno's
 * `Deno.upgradeWebSocket`, a Worker's `WebSocketPair`, and the servers that upgrade outside `fetch`
 * and lend the request their upgrade ({@link lendUpgrade}): Bun, whose `Bun.serve` upgrades through
 * its `server.upgrade()` and delivers the socket's events to its `websocket` handlers rather than to
 * the socket ({@link bunWebSocket}: `serve()` uses it on Bun, and a bare `Bun.serve` takes it as
 * `Bun.serve({ port, ...bunWebSocket(server) })`), and Node's `http.Server`, whose `upgrade` event
 * `attachWebSocket()` (`src/runtime/node/websocket-upgrade.ts`) answers with the `ws` package. A route accepts with
 * {@link acceptWebSocket}, naming what to do with the socket's events; it knows no runtime.
 *
 * @module
 */

/** The socket a route accepted, as it writes to it. */
export interface AcceptedSocket {
  /**
   * Sends a text frame.
   *
   * @param text The text.
   */
  send(text: string): void;
  /**
   * The bytes sent but not yet handed to the network (WHATWG WebSockets, `bufferedAmount`; Bun's
   * `getBufferedAmount()`): what a peer that stops reading leaves queued in this process.
   */
  readonly bufferedAmount: number;
  /**
   * Closes the socket (RFC 6455 §7.1.2).
   *
   * @param code The status code (§7.4).
   * @param reason A short reason.
   */
  close(code?: number, reason?: string): void;
  /** Drops the connection at once, without the closing handshake (`ws`'s `terminate()`), where the runtime can. */
  terminate?(): void;
  /** Stops reading the peer's frames (`ws`'s `pause()`), where the runtime can. */
  pause?(): void;
  /** Reads the peer's frames again. */
  resume?(): void;
}

/** What a route does with a socket's events. */
export interface SocketEvents {
  /** The socket is open: from now on it can send. */
  open(socket: AcceptedSocket): void;
  /** A whole message arrived: a text frame's text, or a binary frame's bytes. */
  message(data: string | Uint8Array): void;
  /** The socket closed (the peer, the network, or `close()`). */
  close(code: number, reason: string): void;
}

/**
 * A server's own upgrade, lent to the request it is serving: Bun's `server.upgrade()`, or Node's
 * `ws` answering the `upgrade` event. It returns whether the server will take the socket over.
 */
export type LentUpgrade = (events: SocketEvents, accept: LentAccept) => boolean;

/** What a lent upgrade is asked to do. */
export interface LentAccept extends AcceptOptions {
  /** The headers to add to the 101 answer (the selected subprotocol). */
  readonly headers: Record<string, string>;
}

/** The upgrade lent to each GET request a server serves, for a route to take. */
const LENT_UPGRADES = new WeakMap<Request, LentUpgrade>();

/** The answers that stand for an upgrade the server took over (it sends the 101 itself). */
const UPGRADED = new WeakSet<Response>();

/**
 * Lends a request the upgrade of the server serving it, for {@link acceptWebSocket} to use.
 *
 * @param request The request, as the server hands it to `fetch`.
 * @param upgrade The server's upgrade.
 */
export function lendUpgrade(request: Request, upgrade: LentUpgrade): void {
  LENT_UPGRADES.set(request, upgrade);
}

/**
 * Whether `fetch`'s answer stands for an upgrade a lent upgrade took over: the server sends no answer.
 *
 * @param response The answer of `fetch`.
 * @returns True when the socket was taken over.
 */
export function tookOver(response: Response): boolean {
  return UPGRADED.has(response);
}

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

interface DenoUpgrade {
  upgradeWebSocket(
    request: Request,
    options: { protocol?: string; idleTimeout?: number },
  ): { socket: WebSocket; response: Response };
}

/** A Worker's `WebSocketPair` (workerd): two ends, the server's accepted in place. */
type WebSocketPairLike = new () => Record<0 | 1, WebSocket & { accept(): void }>;

/** Options of {@link acceptWebSocket}. */
export interface AcceptOptions {
  /** The subprotocol selected (RFC 6455 §4.2.2), sent back in `Sec-WebSocket-Protocol`. */
  readonly protocol?: string;
  /** Seconds without a pong to a ping before Deno closes the socket (Bun: its own `idleTimeout`). */
  readonly idleTimeoutS?: number;
}

/**
 * Accepts a WebSocket upgrade on the runtime at hand.
 *
 * @param request The upgrade request (a GET with `Upgrade: websocket`).
 * @param events What to do with the socket's events.
 * @param options The subprotocol selected, and the keep-alive timeout.
 * @returns The answer to give the request (101 on Deno and Workers; under a lent upgrade, one {@link tookOver} recognises).
 * @throws {Error} On a runtime, or a Bun or Node server, that cannot upgrade.
 */
export function acceptWebSocket(request: Request, events: SocketEvents, options: AcceptOptions = {}): Response {
  const headers: Record<string, string> = options.protocol === undefined
    ? {}
    : { "sec-websocket-protocol": options.protocol };
  // A server's own upgrade first: a Node server under Deno's Node compatibility lends one too.
  const upgrade = LENT_UPGRADES.get(request);
  if (upgrade !== undefined) {
    if (!upgrade(events, { ...options, headers })) throw new Error("the server refused the upgrade");
    const taken = new Response(null, { status: 204 });
    UPGRADED.add(taken);
    return taken;
  }
  const g = globalThis as { Deno?: DenoUpgrade; WebSocketPair?: WebSocketPairLike; Bun?: unknown };
  if (g.Deno !== undefined) {
    const { socket, response } = g.Deno.upgradeWebSocket(request, {
      protocol: options.protocol,
      idleTimeout: options.idleTimeoutS,
    });
    listen(socket, events);
    return response;
  }
  if (g.WebSocketPair !== undefined) {
    const pair = new g.WebSocketPair();
    const server = pair[1];
    server.accept();
    listen(server, events);
    // workerd's 101 answer carries the client's end (Cloudflare Workers, WebSockets).
    return new Response(null, { status: 101, headers, webSocket: pair[0] } as ResponseInit);
  }
  throw new Error(
    g.Bun === undefined
      ? "this server cannot upgrade: on Node, attachWebSocket(httpServer, server) from @mcplite/sdk/websocket"
      : "Bun.serve needs the WebSocket handlers: serve(server), or Bun.serve({ ...bunWebSocket(server) })",
  );
}

/**
 * Hands a standard `WebSocket`'s events to a route (Deno's, a Worker's, or the `ws` package's, which
 * has the same `EventTarget` surface).
 *
 * @param socket The accepted socket.
 * @param events The route's handlers.
 * @param control What the runtime's socket can do beyond the standard (`ws`: terminate, pause, resume).
 */
export function listen(
  socket: WebSocket,
  events: SocketEvents,
  control: Pick<AcceptedSocket, "terminate" | "pause" | "resume"> = {},
): void {
  const accepted: AcceptedSocket = {
    ...control,
    send: (text) => {
      if (socket.readyState === 1 /* OPEN */) socket.send(text);
    },
    get bufferedAmount() {
      return socket.bufferedAmount;
    },
    close: (code, reason) => socket.close(code, reason),
  };
  const open = () => events.open(accepted);
  const message = (event: MessageEvent) => {
    const data = event.data;
    events.message(typeof data === "string" ? data : new Uint8Array(data as ArrayBuffer));
  };
  const close = (event: CloseEvent) => {
    // Deno keeps a socket its peer dropped (no closing handshake) reachable after `close`: let go of
    // the route's handlers, so the connection behind them (its calls, caller, headers) is freed.
    socket.removeEventListener("open", open);
    socket.removeEventListener("message", message);
    socket.removeEventListener("close", close);
    events.close(event.code, event.reason);
  };
  // A Worker's accepted end is open already, and fires no `open`.
  if (socket.readyState === 1) open();
  else socket.addEventListener("open", open);
  socket.binaryType = "arraybuffer";
  socket.addEventListener("message", message);
  socket.addEventListener("close", close);
}
