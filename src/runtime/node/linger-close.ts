/**
 * The lingering close (RFC 9112 §9.6, `../linger.ts`) on a `node:http` connection: Node closes a
 * connection whose answer said `Connection: close` with `socket.destroySoon()`, which destroys the socket
 * as soon as the answer is written; a body still arriving then meets a reset, which can erase the answer
 * before the client reads it. Here that connection is half-closed instead, and its body read and
 * discarded until the client closes, or {@link LINGER_MS} pass.
 *
 * @module
 */
import { LINGER_MS } from "../linger.ts";
import type { Lent } from "../listen-types.ts";

/** A `net.Socket`, as much of it as the close uses. */
interface LingeringSocket {
  destroySoon?: () => void;
  end(): unknown;
  destroy(): unknown;
  once(event: "close", listener: () => void): unknown;
}

/** A Node request whose body is still arriving, as much of it as the close uses. */
interface ArrivingBody {
  readonly socket: object;
  removeAllListeners?(event: "data"): unknown;
  resume(): unknown;
}

/**
 * Makes the connection `incoming` arrives on linger when Node closes it after the answer (a `node:http`
 * server, as `serve()`'s, Express's, Fastify's). Anything else (a socket without `destroySoon`) is left as it is.
 *
 * @param incoming The request whose body the handler left unread.
 * @param unrefTimer Keeps the linger's timer from holding the process open (lent: `Lent`).
 */
export function lingerOnClose(incoming: ArrivingBody, unrefTimer: Lent["unrefTimer"]): void {
  const socket = incoming.socket as LingeringSocket;
  if (typeof socket.destroySoon !== "function") return;
  socket.destroySoon = () => {
    // The rest of the body is discarded as it comes (Node's own `_dump()`), even after a handler began reading it.
    incoming.removeAllListeners?.("data");
    incoming.resume();
    socket.end(); // the answer, then FIN: the server sends nothing more, and still reads
    const timer = unrefTimer(setTimeout(() => socket.destroy(), LINGER_MS));
    socket.once("close", () => clearTimeout(timer)); // the client closed: Node destroys a socket ended both ways
  };
}
