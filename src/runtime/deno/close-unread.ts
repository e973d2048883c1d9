/**
 * Closing a connection from a `Deno.serve` handler, which (2.9) keeps one open while a body is still arriving: a
 * refusal of an unread body (503, 429, 413, 401…) is sent whole, and its body then fails on purpose. Closed at once,
 * the client's bytes still coming meet a reset that can erase the answer (RFC 9112 §9.6), so a body of a declared
 * length within the body limit is first read and discarded for at most {@link LINGER_MS} (`../linger.ts`); one
 * without a length or past the limit closes at once (Deno keeps a connection whose body was read from until it
 * ends). Why: docs/concepts/runtimes.md.
 *
 * @module
 */
import { LINGER_MS } from "../linger.ts";
import type { Lent } from "../listen-types.ts";
import { STEP_BYTES } from "./read-declared.ts";

/** The failure that ends a refusal's body: the connection closes, nothing is reported. */
class ConnectionClosed extends Error {
  override readonly name = "ConnectionClosed";
}

const CLOSED = new ConnectionClosed("closed after a refusal marked Connection: close");

/**
 * The response as sent, closing the connection after it when it refuses a request whose body was left
 * unread (the client may still be sending it).
 *
 * @param request The request.
 * @param response The handler's response.
 * @param maxLingerBytes The largest declared body read and discarded before the connection closes (the server's body limit).
 * @param unrefTimer Keeps the linger's timer from holding the process open (lent: `Lent`).
 * @returns The same response, or one with the same head and body that closes the connection after it.
 */
export function closingAfter(
  request: Request,
  response: Response,
  maxLingerBytes: number,
  unrefTimer: Lent["unrefTimer"],
): Response | Promise<Response> {
  if (response.status < 400 || request.body === null || request.bodyUsed) return response;
  const declared = Number(request.headers.get("content-length") ?? NaN);
  const linger = declared >= 0 && declared <= maxLingerBytes;
  return response.arrayBuffer().then((buffer) => {
    const bytes = new Uint8Array(buffer);
    const headers = new Headers(response.headers);
    headers.set("content-length", String(bytes.byteLength));
    headers.set("connection", "close");
    let sent = bytes.byteLength === 0;
    // The bytes, then (once they are taken, and the body discarded) the failure: Deno writes the whole body,
    // then drops the connection.
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!sent) {
          sent = true;
          return controller.enqueue(bytes);
        }
        if (linger) await discard(request.body!, unrefTimer);
        controller.error(CLOSED);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  });
}

/**
 * The buffer a discarded body is read into, chunk after chunk (a byte stream's BYOB read: no garbage per chunk),
 * of one step's size: small reads keep `Deno.serve`'s own read buffers small (59 refused 4 MiB bodies discarded at
 * once peaked ~10 MB lower with 16 KiB than with 64 KiB, bench/budgets-rss.ts).
 */
const DISCARD_BYTES = STEP_BYTES;

/**
 * Reads a body to its end and drops it, for at most {@link LINGER_MS}. `Deno.serve` hands a byte stream, read into
 * one buffer; a body the request was rebuilt with (a middleware's `new Request(request, { body })`) may be a plain
 * stream, which refuses a BYOB reader (WHATWG Streams §4.6.4), and is read chunk by chunk instead.
 */
async function discard(body: ReadableStream<Uint8Array>, unrefTimer: Lent["unrefTimer"]): Promise<void> {
  let byob: ReadableStreamBYOBReader | undefined;
  try {
    byob = body.getReader({ mode: "byob" });
  } catch {
    // not a byte stream
  }
  const reader = byob ?? body.getReader();
  const timer = unrefTimer(setTimeout(() => void reader.cancel().catch(() => {}), LINGER_MS));
  let into = new Uint8Array(DISCARD_BYTES);
  try {
    for (;;) {
      const { done, value } = byob ? await byob.read(into) : await (reader as ReadableStreamDefaultReader).read();
      if (done || value === undefined) break;
      if (byob) into = new Uint8Array(value.buffer); // the same memory, handed back
    }
  } catch {
    // the client went away: nothing left to wait for
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `Deno.serve`'s `onError`: the failure that closes a connection is expected and silent; any other
 * is printed and answered 500, as `Deno.serve` does without one.
 *
 * @param error What the handler or a response body threw.
 * @returns The answer, when the response has not started.
 */
export function onServeError(error: unknown): Response {
  if (error !== CLOSED) console.error(error);
  return new Response("Internal Server Error", { status: 500 });
}
