/**
 * A fetch `Request` from Node's `http.IncomingMessage`: a body that had all arrived is handed over as
 * bytes; one still arriving streams in as the handler reads it (so `bodyTimeoutMs` and `maxBodyBytes`
 * apply as on Deno and Bun). The request's `signal` aborts when the client goes away before the answer
 * is written; it is made when first read (most handlers never read it, and a followed signal is costly).
 *
 * @module
 */
import { concatBytes } from "../internal/concat-bytes.ts";
import type { NodeRequest } from "./types.ts";

/**
 * Builds the `Request` a fetch handler gets from a Node request.
 *
 * @param incoming The Node request.
 * @param path The path and query the handler sees.
 * @param signal Makes the signal that aborts when the client goes away, when it is first read.
 * @returns The request.
 */
export function requestFromNode(incoming: NodeRequest, path: string, signal: () => AbortSignal): Request {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  const method = incoming.method ?? "GET";
  const scheme = (incoming.socket as { encrypted?: boolean }).encrypted === true ? "https" : "http";
  const url = `${scheme}://${incoming.headers.host ?? "localhost"}${path}`;
  let request: Request;
  if (method === "GET" || method === "HEAD") request = new Request(url, { method, headers });
  else {
    const parsed = parsedBody(incoming);
    if (parsed !== undefined) headers.delete("content-length"); // the body as the parser left it
    const body = parsed ?? arrived(incoming) ?? bodyStream(incoming);
    request = new Request(url, { method, headers, body, duplex: "half" } as RequestInit);
  }
  let made: AbortSignal | undefined;
  Object.defineProperty(request, "signal", { get: () => made ??= signal() });
  return request;
}

/** The whole body, when the parser already received all of it (the usual small request) and nobody read it. */
function arrived(incoming: NodeRequest): Uint8Array | undefined {
  if (incoming.complete !== true || incoming.readableFlowing === true) return undefined;
  const chunks: Uint8Array[] = [];
  for (let chunk = incoming.read(); chunk !== null; chunk = incoming.read()) chunks.push(chunk);
  return chunks.length === 1 ? chunks[0] : concatBytes(chunks, chunks.reduce((size, c) => size + c.byteLength, 0));
}

/** The body a framework's parser already read (Express's `express.json()`…), or undefined. */
function parsedBody(incoming: NodeRequest): Uint8Array | string | undefined {
  if (incoming.readableEnded !== true || incoming.body === undefined) return undefined;
  const body = incoming.body;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  return JSON.stringify(body);
}

/** The body as a stream pulled from the Node request: a paused request reads no more than asked (backpressure). */
function bodyStream(incoming: NodeRequest): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      incoming.on("data", (chunk: Uint8Array) => {
        if (!open) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
      });
      incoming.on("end", () => {
        if (open) controller.close();
        open = false;
      });
      incoming.on("error", (error) => {
        if (open) controller.error(error);
        open = false;
      });
      incoming.pause();
    },
    pull() {
      incoming.resume();
    },
    cancel() {
      // The handler stopped reading (a body over the limit, a stalled sender): the rest is discarded.
      open = false;
      incoming.resume();
    },
  }, { highWaterMark: 1 });
}
