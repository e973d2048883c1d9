/**
 * What a WebSocket route (RFC 6455) and the runtimes' upgrades agree on: the socket a route accepted,
 * the events it hands the route, the upgrade a server lends a request (Bun's `server.upgrade()`, Node's
 * `ws`), and `listen()`, which serves a standard `WebSocket` (Deno's, a Worker's, `ws`'s). Each runtime's
 * upgrade is in `src/runtime/<runtime>/websocket-upgrade.ts`; `acceptWebSocket()` (`src/server/upgrade.ts`)
 * tries them.
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

// Both symbols are made at first use (`??=`), so that this module has no top-level statement: the server's
// `acceptWebSocket()` and `serve()`'s lazily loaded listeners both import it, and a bundler wraps a module both
// reach in an initialiser when it has one (`bun build`: +60 B gzip on every server).
/** Where a GET request carries the upgrade the server serving it lent it: a value on the request, not a table beside it. */
let lent: symbol | undefined;

/** The mark of an answer that stands for an upgrade the server took over (it sends the 101 itself), on the answer. */
let takenOver: symbol | undefined;

/**
 * Lends a request the upgrade of the server serving it, for {@link acceptWebSocket} to use.
 *
 * @param request The request, as the server hands it to `fetch`.
 * @param upgrade The server's upgrade.
 */
export function lendUpgrade(request: Request, upgrade: LentUpgrade): void {
  (request as Request & Record<symbol, LentUpgrade>)[lent ??= Symbol()] = upgrade;
}

/**
 * The upgrade a server lent a request (see {@link lendUpgrade}).
 *
 * @param request The request.
 * @returns The server's upgrade, or `undefined` when none was lent.
 */
export function lentUpgradeOf(request: Request): LentUpgrade | undefined {
  return (request as Request & Record<symbol, LentUpgrade | undefined>)[lent ??= Symbol()];
}

/**
 * Marks an answer as standing for an upgrade a lent upgrade took over (see {@link tookOver}).
 *
 * @param response The answer `acceptWebSocket()` gives.
 */
export function markTakenOver(response: Response): void {
  (response as Response & Record<symbol, true>)[takenOver ??= Symbol()] = true;
}

/**
 * Whether `fetch`'s answer stands for an upgrade a lent upgrade took over: the server sends no answer.
 *
 * @param response The answer of `fetch`.
 * @returns True when the socket was taken over.
 */
export function tookOver(response: Response): boolean {
  return (takenOver ??= Symbol()) in response;
}

/** Options of {@link acceptWebSocket}. */
export interface AcceptOptions {
  /** The subprotocol selected (RFC 6455 §4.2.2), sent back in `Sec-WebSocket-Protocol`. */
  readonly protocol?: string;
  /** Seconds without a pong to a ping before Deno closes the socket (Bun: its own `idleTimeout`). */
  readonly idleTimeoutS?: number;
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
