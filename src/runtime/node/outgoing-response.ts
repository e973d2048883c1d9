/**
 * Writes a fetch `Response` on Node's `http.ServerResponse`: a body in one chunk goes out in one write
 * with its `Content-Length`; a stream (SSE, a long answer) is written chunk by chunk as it is produced,
 * waiting for `drain` when the socket's buffer is full (backpressure), and cancelled when the client goes
 * away, so that the producer (an SSE stream's `cancel`) learns of it. A body made from a string or bytes
 * (`new Response(json)`, most answers) is written as it was given, without reading it through its stream.
 *
 * @module
 */
import type { NodeResponse } from "./node-types.ts";

const PENDING: unique symbol = Symbol("pending");

/**
 * The key of the state Node's `Response` (undici) keeps its body in, when it has one: undici holds the
 * string or bytes a body was made from (`body.source`) beside its stream. Unknown (another runtime, a
 * later undici): every body is read through its stream.
 */
const STATE = Object.getOwnPropertySymbols(new Response()).find((key) => key.description === "state");

/** The string or bytes `response`'s body was made from, when nobody read it; else undefined. */
function wholeBody(response: Response): { source: string | Uint8Array; length: number } | undefined {
  if (STATE === undefined) return undefined;
  const body = (response as unknown as Record<symbol, { body?: { source?: unknown; length?: unknown } } | undefined>)[
    STATE
  ]?.body;
  const source = body?.source;
  if (typeof source !== "string" && !(source instanceof Uint8Array)) return undefined;
  if (typeof body?.length !== "number" || response.bodyUsed || response.body?.locked) return undefined;
  return { source, length: body.length };
}

/**
 * Settles a few microtasks from now: a body already whole (a string or bytes) reports its end within
 * one or two, on Node, Bun and Deno; a stream still producing (SSE) does not, and is not waited for.
 */
function soon(): Promise<typeof PENDING> {
  return Promise.resolve().then(() => {}).then(() => {}).then(() => {}).then(() => PENDING);
}

/**
 * Writes `response` on `res`.
 *
 * @param response The answer of the fetch handler.
 * @param res The Node response.
 * @param close Adds `Connection: close` (the request's body was left unread).
 * @returns When the answer is written, or the client went away.
 */
export async function writeResponse(response: Response, res: NodeResponse, close = false): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  if (close) headers.connection = "close";
  // Node writes the head when asked (`writeHead`): it is asked once the body's length is known, or not.
  const head = (length?: number) => {
    if (length !== undefined) headers["content-length"] = String(length);
    res.writeHead(response.status, response.statusText || undefined, headers);
  };
  const whole = wholeBody(response);
  if (whole !== undefined) {
    head(whole.length);
    return void res.end(whole.source);
  }
  const body = response.body;
  if (body === null) {
    head();
    return void res.end();
  }
  const reader = body.getReader();
  const gone = () => void reader.cancel().catch(() => {});
  res.once("close", gone);
  try {
    const reading = reader.read();
    let first = await Promise.race([reading, soon()]);
    let next: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
    if (first === PENDING) {
      // A stream with nothing to say yet (an event stream before its first event): the head goes out now.
      head();
      res.flushHeaders();
      first = await reading;
    } else {
      if (first.done) {
        head(0);
        return void res.end();
      }
      next = reader.read();
      // A body that was whole in its first chunk (JSON) ends in one write, with Content-Length.
      const second = await Promise.race([next, soon()]);
      if (second !== PENDING && second.done) {
        head(first.value.byteLength);
        return void res.end(first.value);
      }
      head();
    }
    let chunk: ReadableStreamReadResult<Uint8Array> = first;
    while (!chunk.done) {
      if (!res.write(chunk.value)) await drained(res);
      chunk = await (next ?? reader.read());
      next = undefined;
    }
    res.end();
  } catch {
    if (!res.headersSent) head();
    res.destroy(); // the producer failed mid-stream: the client sees a cut answer, not a complete one
  } finally {
    res.off("close", gone);
  }
}

/** Waits for the socket's buffer to empty, or for the client to go away (RFC 9112 leaves flow control to TCP). */
function drained(res: NodeResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });
}
