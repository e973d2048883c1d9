/**
 * WebSocket upgrades through the dev server: the front opens a socket to the running child with the
 * client's request (its path, subprotocols and headers), accepts the client's upgrade with the
 * subprotocol the child chose (RFC 6455 §4.2.2), and relays the messages both ways. The runtime's own
 * upgrade does the accepting (Deno's, Bun's, and Node's with the `ws` package), so every runtime the
 * dev command runs on relays. When the child restarts, every relayed socket is closed with 1012
 * ("Service Restart", IANA WebSocket Close Code Number Registry; RFC 6455 §7.4.2): clients reconnect.
 *
 * @module
 */
import { type AcceptedSocket, acceptWebSocket, type SocketEvents } from "../../server/upgrade.ts";

/** How long the child may take to accept an upgrade, in ms. */
const OPEN_WAIT_MS = 10_000;
/** The close code of a restart (IANA WebSocket Close Code Number Registry). */
export const SERVICE_RESTART = 1012;
/** Headers the client's socket sets itself: the handshake's (RFC 6455 §4.1) and hop-by-hop ones. */
const HANDSHAKE = /^(sec-websocket-|connection$|upgrade$|host$|content-length$|keep-alive$|transfer-encoding$)/;

/** What a `WebSocket` constructor takes on Deno, Bun and Node (undici): headers beside the subprotocols. */
type SocketConstructor = new (url: string, init: { protocols: string[]; headers: Headers }) => WebSocket;

/** The sockets the dev server relays, closed together at a restart. */
export class DevSockets {
  readonly #open = new Set<(code: number, reason: string) => void>();

  /**
   * Whether a request asks to upgrade to a WebSocket (RFC 6455 §4.1).
   *
   * @param request The request.
   * @returns True for a GET with `Upgrade: websocket`.
   */
  static isUpgrade(request: Request): boolean {
    return request.method === "GET" && request.headers.get("upgrade")?.toLowerCase() === "websocket";
  }

  /**
   * Relays an upgrade to the child.
   *
   * @param request The client's upgrade request.
   * @param target The child's URL for it (`ws://127.0.0.1:<port>/…`).
   * @param headers The headers to send the child (the client's, with the host it addressed).
   * @returns The answer to the client's upgrade, or `undefined` when the child did not accept: the
   *   caller then forwards the request as plain HTTP, whose answer (401, 403, 404, 426…) says why.
   */
  async relay(request: Request, target: string, headers: Headers): Promise<Response | undefined> {
    const offered = (request.headers.get("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim())
      .filter(Boolean);
    const sent = new Headers();
    headers.forEach((value, name) => void (HANDSHAKE.test(name) ? undefined : sent.set(name, value)));
    const upstream = new (WebSocket as unknown as SocketConstructor)(target, { protocols: offered, headers: sent });
    upstream.binaryType = "arraybuffer";
    const queued: (string | ArrayBuffer)[] = [];
    const early = (event: MessageEvent) => void queued.push(event.data);
    upstream.addEventListener("message", early);
    const opened = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), OPEN_WAIT_MS);
      upstream.addEventListener("open", () => (clearTimeout(timer), resolve(true)), { once: true });
      upstream.addEventListener("error", () => (clearTimeout(timer), resolve(false)), { once: true });
      upstream.addEventListener("close", () => (clearTimeout(timer), resolve(false)), { once: true });
    });
    if (!opened || request.signal.aborted) {
      upstream.close();
      return undefined;
    }
    let client: AcceptedSocket | undefined;
    let ended: { code: number; reason: string } | undefined;
    const end = (code: number, reason: string) => {
      if (ended) return;
      ended = { code, reason };
      this.#open.delete(end);
      client?.close(code, reason);
      if (upstream.readyState <= 1) upstream.close(1000);
    };
    const text = (data: string | ArrayBuffer) => typeof data === "string" ? data : new TextDecoder().decode(data);
    upstream.removeEventListener("message", early);
    // What the child sends before the client's side opens waits for it.
    upstream.addEventListener("message", (event) => client ? client.send(text(event.data)) : queued.push(event.data));
    // 1005, 1006 and 1015 are never sent in a close frame (RFC 6455 §7.4.1): the child went away.
    upstream.addEventListener("close", ({ code, reason }) => end(sendable(code) ? code : 1011, reason));
    this.#open.add(end);
    const events: SocketEvents = {
      open: (socket) => {
        client = socket;
        if (ended) return socket.close(ended.code, ended.reason);
        for (const data of queued.splice(0)) socket.send(text(data));
      },
      message: (data) => {
        // The socket layer's bytes own their ArrayBuffer (never a SharedArrayBuffer), as WebSocket.send() asks.
        if (upstream.readyState === 1) upstream.send(data as string | Uint8Array<ArrayBuffer>);
      },
      close: (code, reason) => {
        ended = { code, reason };
        this.#open.delete(end);
        // A client's WebSocket closes with 1000 or an application's code (WHATWG WebSockets, close()).
        if (upstream.readyState <= 1) upstream.close(code >= 3000 && code <= 4999 ? code : 1000);
      },
    };
    try {
      return acceptWebSocket(request, events, upstream.protocol === "" ? {} : { protocol: upstream.protocol });
    } catch (error) {
      end(1011, "");
      throw error;
    }
  }

  /**
   * Closes every relayed socket, e.g. with 1012 before the child restarts, or 1001 ("going away") when
   * the dev server stops.
   *
   * @param code The close code.
   * @param reason The reason.
   */
  closeAll(code: number, reason: string): void {
    for (const end of [...this.#open]) end(code, reason);
  }
}

/** Whether a close code may travel in a close frame (RFC 6455 §7.4.1, §7.4.2). */
function sendable(code: number): boolean {
  return code === 1000 || (code >= 1001 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) ||
    (code >= 3000 && code <= 4999);
}
