/**
 * The client's end of a WebSocket carrying MCP-lite (MCP-lite spec v0.042 §8.2; the README's
 * "MCP-lite over WebSocket"): a {@link MessageConnection} whose messages are text frames. A socket that
 * closes fails the requests in flight and every later one.
 *
 * @module
 */
import { bearerProtocol, WEBSOCKET_PROTOCOL } from "../../codec/websocket-bearer.ts";
import { isObject } from "../../internal/is-object.ts";
import { transportError } from "../errors.ts";
import { DEFAULT_MAX_RESPONSE_BYTES, responseTooLarge } from "../response-bound.ts";
import { MessageConnection } from "./message-connection.ts";

/** The connection of one socket. */
export class WebSocketConnection extends MessageConnection {
  readonly #socket: WebSocket;
  readonly #closed: Promise<void>;

  private constructor(socket: WebSocket, maxMessageBytes: number) {
    super();
    this.#socket = socket;
    socket.addEventListener("message", (event) => {
      if (sizeOver(event.data, maxMessageBytes)) {
        this.fail(responseTooLarge(maxMessageBytes, "A WebSocket message", ": the socket is closed"));
        // RFC 6455 §7.4.1 names 1009 (Message Too Big), but the WebSocket API lets a client send only 1000
        // or 3000–4999 (WHATWG WebSockets, close(): InvalidAccessError otherwise).
        return socket.close(1000, "a message passed maxResponseBytes");
      }
      let message: unknown;
      try {
        message = JSON.parse(typeof event.data === "string" ? event.data : new TextDecoder().decode(event.data));
      } catch {
        this.fail(transportError("the server sent a frame that is not JSON-RPC"));
        return socket.close(1002);
      }
      if (isObject(message)) this.receive(message);
    });
    this.#closed = new Promise((resolve) =>
      socket.addEventListener("close", (event) => {
        this.fail(transportError(`the WebSocket closed (${event.code}${event.reason ? `: ${event.reason}` : ""})`));
        resolve();
      })
    );
  }

  /**
   * Opens a socket: offers `mcp-lite.v1`, and the token as a subprotocol when there is one.
   *
   * @param url The `ws://` or `wss://` URL.
   * @param token The bearer token, if any.
   * @param timeoutMs How long the upgrade may take.
   * @param headers Headers of the upgrade request (`Authorization`, `DPoP`): Bun, Deno and Node take
   *   them; the WHATWG WebSockets API of browsers has none.
   * @param maxMessageBytes The most bytes one message may hold (`maxResponseBytes`).
   * @returns The open connection.
   * @throws {McpliteError} `transport`: When the upgrade is refused or times out.
   */
  static open(
    url: string,
    token: string | undefined,
    timeoutMs: number,
    headers?: Record<string, string>,
    maxMessageBytes: number = DEFAULT_MAX_RESPONSE_BYTES,
  ): Promise<WebSocketConnection> {
    const protocols = token === undefined ? [WEBSOCKET_PROTOCOL] : [WEBSOCKET_PROTOCOL, bearerProtocol(token)];
    const socket = headers === undefined
      ? new WebSocket(url, protocols)
      // Not in the WebSocket interface of lib.dom: the options form Bun, Deno and Node (undici) accept.
      : new (WebSocket as unknown as new (
        url: string,
        init: { protocols: string[]; headers: Record<string, string> },
      ) => WebSocket)(
        url,
        { protocols, headers },
      );
    socket.binaryType = "arraybuffer";
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.close();
        reject(transportError(`the WebSocket at ${url} did not open within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.addEventListener("open", () => {
        clearTimeout(timer);
        resolve(new WebSocketConnection(socket, maxMessageBytes));
      }, { once: true });
      // The browser API tells no status: a refused upgrade (401, 403, 404) is only an error.
      socket.addEventListener("error", () => {
        clearTimeout(timer);
        reject(transportError(`cannot open a WebSocket at ${url} (refused, or not listening)`));
      }, { once: true });
    });
  }

  /** Settles when the socket closed. */
  get closed(): Promise<void> {
    return this.#closed;
  }

  protected write(text: string): Promise<void> {
    this.#socket.send(text);
    return Promise.resolve();
  }

  /**
   * Closes the socket (its running calls abort on the server).
   *
   * @returns When it closed (at most 2 s).
   */
  close(): Promise<void> {
    this.endStandalone();
    this.#socket.close(1000);
    return Promise.race([this.#closed, new Promise<void>((resolve) => setTimeout(resolve, 2000))]);
  }
}

const encoder = new TextEncoder();

/** Whether a message holds more than `limit` bytes: a text frame's UTF-8 takes 1 to 3 bytes a UTF-16 unit. */
function sizeOver(data: unknown, limit: number): boolean {
  if (typeof data !== "string") return data instanceof ArrayBuffer && data.byteLength > limit;
  if (data.length > limit) return true;
  return data.length * 3 > limit && encoder.encode(data).byteLength > limit;
}
