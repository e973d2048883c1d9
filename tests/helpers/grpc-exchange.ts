/**
 * One raw gRPC request over HTTP/2 on its own connection, for the tests that look at the wire itself (headers,
 * frames, trailers) rather than through a client.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { connect, type IncomingHttpHeaders } from "node:http2";

/** What came back: the response headers (without `date`), the body's bytes, the trailers. */
export interface H2Exchange {
  headers: Record<string, unknown>;
  body: Uint8Array;
  trailers: Record<string, unknown>;
}

/**
 * Frames a message as gRPC does (gRPC over HTTP/2 protocol, Length-Prefixed-Message): its flags (1: compressed),
 * and the length the prefix states (a test may state a wrong one).
 */
export function grpcFrame(message: Uint8Array, flags = 0, length: number = message.byteLength): Uint8Array {
  const frame = new Uint8Array(5 + message.byteLength);
  frame[0] = flags;
  new DataView(frame.buffer).setUint32(1, length);
  frame.set(message, 5);
  return frame;
}

/**
 * POSTs `body` to `path` with `headers` (`te: trailers` added) on a connection of its own and collects the answer
 * until the stream closes; `reset` cancels the stream (RST_STREAM CANCEL) after that many ms.
 */
export function h2Exchange(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: Uint8Array,
  reset?: number,
): Promise<H2Exchange> {
  return new Promise((resolve, reject) => {
    const session = connect(url);
    session.on("error", reject);
    const stream = session.request({ ":method": "POST", ":path": path, te: "trailers", ...headers });
    let head: IncomingHttpHeaders = {}, trailers: IncomingHttpHeaders = {};
    const chunks: Uint8Array[] = [];
    stream.on("response", (h) => head = h);
    stream.on("trailers", (t) => trailers = t);
    stream.on("data", (chunk: Uint8Array) => chunks.push(chunk));
    stream.on("error", () => {}); // a reset: what arrived is the answer
    stream.on("close", () => {
      // destroy(), not close(): no GOAWAY in flight for Deno's node:http2 to abort on (tests/helpers/h2-sessions.ts)
      session.destroy();
      const { date: _date, ...rest } = head;
      resolve({ headers: { ...rest }, body: new Uint8Array(Buffer.concat(chunks)), trailers: { ...trailers } });
    });
    stream.end(body);
    if (reset !== undefined) setTimeout(() => stream.close(0x8), reset);
  });
}
