/**
 * Writes a fetch `Response` on Node's `http.ServerResponse`: a body in one chunk in one write with its
 * `Content-Length`; a stream (SSE) chunk by chunk, waiting for `drain` (backpressure), cancelled when the
 * client goes away. A body made from a string or bytes is written as given, not read through its stream;
 * on Node 20 and 22 the server's own answers are made with their stream left to be made when read
 * ({@link answerLazily}).
 *
 * @module
 */
import type { NodeResponse } from "./node-types.ts";
import type { AnswerMakers } from "../answer-makers.ts";

const PENDING: unique symbol = Symbol("pending");

/**
 * The key of the state Node's `Response` (undici) keeps its body in, when it has one: undici holds the
 * string or bytes a body was made from (`body.source`) beside its stream. Unknown (another runtime, a
 * later undici): every body is read through its stream.
 */
const STATE = Object.getOwnPropertySymbols(new Response()).find((key) => key.description === "state");

/** Node's `Buffer.byteLength`, the UTF-8 length of a string without encoding it. */
const byteLength = (globalThis as { Buffer?: { byteLength(text: string): number } }).Buffer?.byteLength;

/** The `Response` whose body record this module reads and makes: the global one when it loaded. */
const NODE_RESPONSE = Response;

/** The statuses whose answer has no body (Fetch, "null body status"): `new Response(text, init)` refuses them. */
const NULL_BODY = [204, 205, 304];

/**
 * A body made from a string, as undici keeps one (`stream`, `source`, `length`), whose stream is made
 * when something first reads it (`body`, `bodyUsed`, `text()` and the other readers, `clone()`): undici
 * makes a byte `ReadableStream` for every body at construction, most of the cost of an answer the
 * adapter then writes from its string. Its stream is the one `new Response(source)` would have had.
 */
class LazyBody {
  #stream: ReadableStream<Uint8Array> | null | undefined;
  readonly source: string;
  readonly length: number;
  constructor(source: string) {
    this.source = source;
    this.length = byteLength!(source);
  }
  /** Whether nothing has asked for the stream yet. */
  untouched(): boolean {
    return this.#stream === undefined;
  }
  get stream(): ReadableStream<Uint8Array> | null {
    return this.#stream ??= new NODE_RESPONSE(this.source).body;
  }
  set stream(stream: ReadableStream<Uint8Array> | null) { // undici's clone() tees it and keeps one half
    this.#stream = stream;
  }
}

type State = { body?: { source?: unknown; length?: unknown } | LazyBody | null } | undefined;

/** The body record undici keeps in `response`, or undefined. */
const stateOf = (response: Response): State =>
  STATE === undefined ? undefined : (response as unknown as Record<symbol, State>)[STATE];

/**
 * `new Response(text, init)` with `text` under `type` (unless `init` labels it), its body stream left
 * to be made when read: the same undici `Response` otherwise (status, headers, every member).
 */
function answerFromText(text: string, init: ResponseInit | undefined, type: string): Response {
  const response = new NODE_RESPONSE(null, init);
  if (!response.headers.has("content-type")) response.headers.set("content-type", type);
  stateOf(response)!.body = new LazyBody(text);
  return response;
}

/**
 * Whether this Node's `Response` keeps its body as {@link LazyBody} stands in for: a record of exactly
 * `stream`, `source` and `length` (undici 6, Node 20 and 22), read through that record by every member
 * (a later undici keeps it elsewhere: no `state` key, and nothing changes).
 */
function keepsBodyAsRecord(): boolean {
  if (byteLength === undefined || Response !== NODE_RESPONSE) return false;
  const held = stateOf(new NODE_RESPONSE("é"))?.body;
  if (held == null || Object.keys(held).sort().join() !== "length,source,stream") return false;
  if (held.source !== "é" || held.length !== 2) return false;
  const probe = answerFromText("é", undefined, "text/plain;charset=UTF-8");
  const copy = probe.clone(); // tees the lazy stream and keeps a half, through the record
  return probe.body instanceof ReadableStream && copy.body instanceof ReadableStream && !probe.bodyUsed &&
    stateOf(copy)?.body?.source === "é";
}

/** Whether {@link answerLazily} looked (and put its makers in where it could). */
let looked = false;

/**
 * Makes the server's own answers on Node with their body stream left to be made when read (see
 * {@link LazyBody}), where Node's `Response` keeps its body as this module reads it; elsewhere (Bun's or
 * Deno's `node:http`, a later undici) nothing changes. An answer with a null body status, or one made
 * once the global `Response` was replaced (`@hono/node-server` puts in its own), is made as before.
 *
 * @param answers The server's makers (`src/runtime/answer-makers.ts`), lent by `serve()` or `nodeHandler()`.
 */
export function answerLazily(answers: AnswerMakers): void {
  if (looked) return;
  looked = true;
  if (!keepsBodyAsRecord()) return;
  const { json, text } = answers;
  const lazy = (init: ResponseInit | undefined) => Response === NODE_RESPONSE && !NULL_BODY.includes(init?.status!);
  answers.text = (body, init) => lazy(init) ? answerFromText(body, init, "text/plain;charset=UTF-8") : text(body, init);
  answers.json = (value, init) => {
    const body = lazy(init) ? JSON.stringify(value) : undefined;
    // A value JSON cannot hold: Response.json's own TypeError.
    return body === undefined ? json(value, init) : answerFromText(body, init, "application/json");
  };
}

/** The string or bytes `response`'s body was made from, when nobody read it; else undefined. */
function wholeBody(response: Response): { source: string | Uint8Array; length: number } | undefined {
  const body = stateOf(response)?.body;
  if (body instanceof LazyBody && body.untouched()) return body;
  const source = body?.source;
  if (typeof source !== "string" && !(source instanceof Uint8Array)) return undefined;
  if (typeof body?.length !== "number" || response.bodyUsed || response.body?.locked) return undefined;
  // Bytes a clone's reader took (undici's byte stream hands its source on: a tee of it detaches the
  // array, `Response.json`'s included): the rest is read through the stream.
  if (typeof source !== "string" && source.byteLength !== body.length) return undefined;
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
 * @param headRequest The request was a `HEAD`: an answer without a body says nothing of its length.
 * @returns When the answer is written, or the client went away.
 */
export async function writeResponse(
  response: Response,
  res: NodeResponse,
  close = false,
  headRequest = false,
): Promise<void> {
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
    // Framed with `Content-Length: 0` where a body may be sent (a 202, a 401): a head written without a
    // length is sent chunked. None for 1xx, 204 and 304 (RFC 9110 §8.6), nor for a HEAD, whose length is
    // the GET's; a length the answer states is kept.
    const status = response.status;
    const bodiless = status < 200 || status === 204 || status === 304 || headRequest;
    head(bodiless || "content-length" in headers ? undefined : 0);
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
