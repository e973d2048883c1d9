/**
 * A WebSocket client on a raw TCP socket (`node:net`), for tests that need what a browser's
 * `WebSocket` cannot do: stop reading. It completes the opening handshake (RFC 6455 §4.1), sends
 * masked text frames (§5.2, §5.3), and can pause, leaving the server's frames unread in the network;
 * and a plain HTTP/1.1 request that reads nothing of its answer (an SSE client that stalls).
 */
import { connect, type Socket } from "node:net";
import { changes } from "../helpers/wait.ts";

/** A raw client socket, upgraded. */
export interface RawSocket {
  /** Sends one JSON-RPC message as a masked text frame. */
  send(message: unknown): void;
  /** Stops reading: the server's frames pile up in the kernel's buffers, then in the server. */
  pause(): void;
  /**
   * Reads again, until the server's close frame (RFC 6455 §5.5.1), the connection's end, or `expected` text frames
   * in all; at most 60 s (a loaded machine moves hundreds of MiB over loopback slowly, so what bounds the wait is
   * what the server does, not a clock).
   *
   * @param expected The text frames that end the wait when they have all come (a server that held every call).
   * @returns How many text frames came before, and the close frame's status code (undefined: none).
   */
  drain(expected: number): Promise<{ frames: number; closeCode?: number }>;
  /**
   * Waits (at most 15 s) for the response to the request `id` among the text frames under 64 KiB.
   *
   * @param id The request's id.
   * @returns The response.
   */
  answer(id: unknown): Promise<Record<string, any>>;
  /** Whether the server closed the connection. */
  readonly closed: boolean;
  /** Drops the connection. */
  destroy(): void;
}

/**
 * Opens a raw WebSocket to `ws://127.0.0.1:{port}{path}`.
 *
 * @param port The server's port.
 * @param path The socket's path.
 * @param headers More upgrade headers.
 * @returns The socket once the server answered 101; rejects on another answer or after 5 s.
 */
export function rawWebSocket(port: number, path: string, headers: Record<string, string> = {}): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, "127.0.0.1");
    let closed = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("no 101 in 5 s"));
    }, 5000);
    let head = "";
    const onData = (chunk: Uint8Array) => {
      head += new TextDecoder().decode(chunk);
      if (!head.includes("\r\n\r\n")) return;
      clearTimeout(timer);
      socket.off("data", onData);
      if (!head.startsWith("HTTP/1.1 101")) {
        socket.destroy();
        return reject(new Error(head.split("\r\n")[0]));
      }
      let pending = new Uint8Array(0);
      let frames = 0;
      let closeCode: number | undefined;
      let woken: (() => void) | undefined;
      let expected = Infinity; // the text frames drain() waits for
      const messages: Record<string, any>[] = [];
      const arrivals = changes(); // told of each batch of frames: what answer() waits on
      socket.on("data", (chunk: Uint8Array) => {
        const joined = new Uint8Array(pending.byteLength + chunk.byteLength);
        joined.set(pending);
        joined.set(chunk, pending.byteLength);
        pending = joined;
        for (let next = parseFrame(pending); next !== undefined; next = parseFrame(pending)) {
          if (next.opcode === 0x8) {
            closeCode = next.payload.byteLength >= 2 ? (next.payload[0] << 8) | next.payload[1] : 1005;
          } else if (next.opcode === 0x1) {
            frames++;
            if (next.payload.byteLength < 65536) messages.push(JSON.parse(new TextDecoder().decode(next.payload)));
          }
          pending = pending.subarray(next.size);
        }
        if (closeCode !== undefined || frames >= expected) woken?.();
        arrivals.changed();
      });
      resolve({
        send: (message) => void socket.write(frame(JSON.stringify(message))),
        pause: () => void socket.pause(),
        drain: (all) =>
          new Promise((done) => {
            expected = all;
            const timer = setTimeout(() => done({ frames, closeCode }), 60_000);
            woken = () => {
              clearTimeout(timer);
              done({ frames, closeCode });
            };
            socket.on("close", woken);
            // The server dropped it already (a reset): nothing more comes; or every frame came already.
            if (socket.destroyed || frames >= expected) woken();
            socket.resume();
          }),
        answer: async (id) => {
          const found = () => messages.find((message) => message.id === id && message.method === undefined);
          await arrivals.until(() => found() !== undefined, `the answer to ${id}`, 15_000);
          return found()!;
        },
        get closed() {
          return closed;
        },
        destroy: () => void socket.destroy(),
      });
    };
    socket.on("data", onData);
    socket.on("error", () => void (closed = true));
    socket.on("close", () => void (closed = true));
    const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
    socket.write(
      [
        `GET ${path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Version: 13",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        ...extra,
        "",
        "",
      ].join("\r\n"),
    );
  });
}

/** A masked, final text frame (RFC 6455 §5.2): a client's frames must be masked (§5.3). */
function frame(text: string): Uint8Array {
  const payload = new TextEncoder().encode(text);
  const length = payload.byteLength;
  const header = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const bytes = new Uint8Array(header + 4 + length);
  bytes[0] = 0x81;
  if (header === 2) bytes[1] = 0x80 | length;
  else if (header === 4) {
    bytes[1] = 0x80 | 126;
    new DataView(bytes.buffer).setUint16(2, length);
  } else {
    bytes[1] = 0x80 | 127;
    new DataView(bytes.buffer).setBigUint64(2, BigInt(length));
  }
  const mask = crypto.getRandomValues(new Uint8Array(4));
  bytes.set(mask, header);
  for (let i = 0; i < length; i++) bytes[header + 4 + i] = payload[i] ^ mask[i % 4];
  return bytes;
}

/** The first whole frame of the server's bytes (RFC 6455 §5.2: unmasked), or undefined when more must come. */
function parseFrame(bytes: Uint8Array): { opcode: number; payload: Uint8Array; size: number } | undefined {
  if (bytes.byteLength < 2) return undefined;
  let length = bytes[1] & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (bytes.byteLength < 4) return undefined;
    length = (bytes[2] << 8) | bytes[3];
    offset = 4;
  } else if (length === 127) {
    if (bytes.byteLength < 10) return undefined;
    length = Number(new DataView(bytes.buffer, bytes.byteOffset + 2, 8).getBigUint64(0));
    offset = 10;
  }
  if (bytes.byteLength < offset + length) return undefined;
  return { opcode: bytes[0] & 0x0f, payload: bytes.subarray(offset, offset + length), size: offset + length };
}

/**
 * Sends one HTTP/1.1 POST (RFC 9112) and never reads the answer: its bytes stay in the network, then
 * in the server.
 *
 * @param port The server's port.
 * @param path The path.
 * @param body The JSON body.
 * @param headers More request headers.
 * @returns A way to drop the connection.
 */
export function stalledPost(port: number, path: string, body: string, headers: Record<string, string>): {
  destroy(): void;
} {
  const socket = connect(port, "127.0.0.1");
  socket.pause();
  socket.on("error", () => {});
  const bytes = new TextEncoder().encode(body);
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\n${extra}` +
      `content-length: ${bytes.byteLength}\r\n\r\n`,
  );
  socket.write(bytes);
  return { destroy: () => void socket.destroy() };
}
