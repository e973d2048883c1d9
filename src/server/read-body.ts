/**
 * Reads a request body within the server's limits: never more than `maxBodyBytes`, never longer than
 * `bodyTimeoutMs`, and only valid UTF-8 (RFC 8259 §8.1: JSON exchanged between systems MUST be UTF-8).
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";
import { concatBytes } from "../internal/concat-bytes.ts";
import { DelayQueue, type Due } from "../internal/delay-queue.ts";
import { CAN_PEEK, NOT_YET, peekFulfilled } from "../runtime/bun/peek.ts";
import { isBounded, readerOf } from "../runtime/body-bound.ts";
import { strictUtf8 as fatal, utf8Encoder as encoder } from "../internal/utf8.ts";

/** The limits a body is read within. */
export interface BodyLimits {
  /** The largest body accepted, in bytes. */
  readonly maxBodyBytes: number;
  /** The longest the body may take to arrive, in ms; 0: no limit. */
  readonly bodyTimeoutMs: number;
}

/** One shared timer per delay: a read's deadline costs an entry, not a `setTimeout`. */
const deadlines = new Map<number, DelayQueue>();

/**
 * Reads a request body as text. A declared `Content-Length` over the limit is refused before
 * reading; a body with no length is read chunk by chunk and refused as soon as it passes the limit.
 * A body still arriving after `bodyTimeoutMs` (a slow or stalled sender) is abandoned, and bytes that
 * are not UTF-8 are refused rather than replaced.
 *
 * @param request The request.
 * @param limits The size and time limits.
 * @returns The body text; at once (no promise) where the runtime already holds it and says so (Bun).
 * @throws {ProtocolError} `payload_too_large`, `request_timeout`, or `parse_error` (not UTF-8).
 */
export function readBody(request: Request, limits: BodyLimits): string | Promise<string> {
  return readBodyThen(request, limits, same);
}

/**
 * {@link readBody} handing the text straight to `then`: where the body has to be waited for, one
 * promise from the read to what `then` makes of it instead of one per stage (each costs a microtask
 * turn on every runtime).
 *
 * @param request The request.
 * @param limits The size and time limits.
 * @param then What to make of the text.
 * @param failed What to make of an error once the read had to be waited for (what `then` throws
 *   included); without it, the promise rejects with the error. Before that, errors are thrown.
 * @returns What `then` made; at once where the runtime already holds the body (Bun).
 * @throws {ProtocolError} As {@link readBody}, where nothing had to be waited for.
 */
export function readBodyThen<T>(
  request: Request,
  limits: BodyLimits,
  then: (text: string) => T | Promise<T>,
  failed?: (error: unknown) => T,
): T | Promise<T> {
  const length = declaredLength(request);
  if (length === undefined) {
    // none, or unreadable: the runtime's own read where the listener bounds the body, else chunk by chunk
    if (!isBounded(request)) return settled(readChunks(request, limits).then(then), failed);
    const bytes = readWhole(request, limits);
    return bytes instanceof Promise ? settled(bytes.then((held) => then(decode(held))), failed) : then(decode(bytes));
  }
  if (length > limits.maxBodyBytes) throw tooLarge(limits.maxBodyBytes);
  // A large body read the listener's own way, where it lent one (`Deno.serve`: `deno/read-declared.ts`).
  const stepped = readerOf(request)?.(request, length);
  const reading = stepped?.bytes.then(decode) ?? request.text();
  const held = peekFulfilled(reading);
  return held !== NOT_YET
    ? then(checkedUtf8(held, length))
    : withinTime(reading, stepped ?? request, limits.bodyTimeoutMs, (text) => then(checkedUtf8(text, length)), failed);
}

/** The value itself: `then` of a read that hands back what it read. */
const same = <T>(value: T): T => value;

/** The promise, its rejection handed to `failed` where there is one. */
function settled<T>(promise: Promise<T>, failed?: (error: unknown) => T): Promise<T> {
  return failed === undefined ? promise : promise.catch(failed);
}

/** The text of a body of `length` bytes, refused if its bytes were not UTF-8. */
function checkedUtf8(text: string, length: number): string {
  // The runtime's decoder replaces bytes that are not UTF-8 with U+FFFD. Without one in the text the
  // bytes were valid; with one, they were not if re-encoding changes the length (each replacement of a
  // one- or two-byte fragment grows it). Only a crafted three-byte fragment of a four-byte sequence
  // keeps the length, and it arrives as U+FFFD, as a client sending that character would.
  if (text.includes("\uFFFD") && encoder.encode(text).byteLength !== length) throw notUtf8();
  return text;
}

/** A body read chunk by chunk: a `ReadableStream`'s reader, or a listener's adapter of its own stream. */
export interface BodyReader {
  /** The next chunk, or `done` at the end of the body (`ReadableStreamReadResult`, spelled out: no DOM types). */
  read(): Promise<{ done: false; value: Uint8Array } | { done: true; value?: Uint8Array }>;
  /** Stops reading: a pending `read()` settles, and the rest of the body is not received. */
  cancel(): Promise<void>;
}

/**
 * Looks at the chunks read so far, after each one, and throws to refuse the body before it is all in
 * (a framing's own limits, e.g. a gRPC length prefix over the limit).
 */
export type BodyCheck = (chunks: readonly Uint8Array[], size: number) => void;

/**
 * Reads a request body as bytes, within the same limits as {@link readBody}: a fetch `Request` (read
 * whole when its `Content-Length` is declared within the limit), or a {@link BodyReader} over another
 * listener's stream (`node:http2`), read chunk by chunk.
 *
 * @param body The request, or a reader of its body.
 * @param limits The size and time limits.
 * @param check Sees the chunks as they arrive (a chunked read only), and may refuse them.
 * @returns The bytes; at once (no promise) where the runtime already holds a body read whole and says
 *   so (Bun). It may then throw synchronously.
 * @throws {ProtocolError} `payload_too_large` or `request_timeout`; whatever `check` throws.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readBodyBytes } from "./read-body.ts";
 * const request = new Request("http://localhost/", { method: "POST", body: "hi" });
 * assert.deepEqual(await readBodyBytes(request, { maxBodyBytes: 10, bodyTimeoutMs: 1000 }), new Uint8Array([104, 105]));
 * ```
 */
export function readBodyBytes(
  body: Request | BodyReader,
  limits: BodyLimits,
  check?: BodyCheck,
): Uint8Array | Promise<Uint8Array> {
  if (!(body instanceof Request)) return readAll(body, limits, check);
  const length = declaredLength(body);
  if (length === undefined) {
    if (!isBounded(body) || check !== undefined) {
      return body.body === null ? new Uint8Array() : readAll(body.body.getReader(), limits, check);
    }
  } else if (length > limits.maxBodyBytes) throw tooLarge(limits.maxBodyBytes);
  return readWhole(body, limits);
}

/**
 * A body read whole by the runtime: one whose `Content-Length` is within the limit, or one without it
 * that the listener bounds (`body-bound.ts`). Its size is checked again, in case the listener's bound
 * is looser than this read's.
 */
function readWhole(request: Request, limits: BodyLimits): Uint8Array | Promise<Uint8Array> {
  const reading = request.arrayBuffer();
  const held = peekFulfilled(reading);
  const within = (buffer: ArrayBuffer) => {
    if (buffer.byteLength > limits.maxBodyBytes) throw tooLarge(limits.maxBodyBytes);
    return new Uint8Array(buffer);
  };
  return held !== NOT_YET ? within(held) : withinTime(reading, request, limits.bodyTimeoutMs, within);
}

/** The declared `Content-Length`, or `undefined` when there is none or it is unreadable. */
function declaredLength(request: Request): number | undefined {
  const declared = request.headers.get("content-length");
  const length = declared === null ? NaN : Number(declared);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

async function readChunks(request: Request, limits: BodyLimits): Promise<string> {
  const body = request.body;
  return body === null ? "" : decode(await readAll(body.getReader(), limits));
}

async function readAll(reader: BodyReader, limits: BodyLimits, check?: BodyCheck): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const deadline = new ReadDeadline(() => reader.cancel().catch(() => {}));
  const timed = limits.bodyTimeoutMs > 0;
  // Where the runtime can tell (Bun), the deadline starts at the first read that has to wait: a body
  // already held (built in process, or arrived with the headers) is read without one.
  let waiting = timed && !CAN_PEEK ? queueFor(limits.bodyTimeoutMs).add(deadline) : undefined;
  try {
    while (true) {
      const reading = reader.read();
      let read = peekFulfilled(reading);
      if (read === NOT_YET) {
        if (timed && waiting === undefined) waiting = queueFor(limits.bodyTimeoutMs).add(deadline);
        read = await reading;
      }
      const { done, value } = read;
      if (deadline.expired) throw timedOut(limits.bodyTimeoutMs);
      if (done) break;
      size += value.byteLength;
      chunks.push(value);
      check?.(chunks, size);
      if (size > limits.maxBodyBytes) throw tooLarge(limits.maxBodyBytes);
    }
  } catch (error) {
    if (deadline.expired) throw timedOut(limits.bodyTimeoutMs);
    await reader.cancel().catch(() => {}); // refused: the rest is not wanted
    throw error;
  } finally {
    waiting?.cancel();
  }
  return chunks.length === 1 ? chunks[0] : concatBytes(chunks, size);
}

/**
 * Settles with `then` of the read, or with `failed` of its error or of a timeout once `ms` have passed
 * (the read is then abandoned, the body it reads from cancelled, and `then` never runs). Where the runtime can peek (Bun), the caller
 * looked first: the read is pending; elsewhere (Deno, Node, Workers) `text()` never settles at once.
 */
function withinTime<T, U>(
  reading: Promise<T>,
  from: { readonly body: { cancel(): Promise<void> } | null },
  ms: number,
  then: (value: T) => U | Promise<U>,
  failed?: (error: unknown) => U,
): Promise<U> {
  if (ms <= 0) return settled(reading.then(then), failed);
  return new Promise<U>((resolve, reject) => {
    const fail = (error: unknown) => {
      try { // what `failed` throws rejects: never out of the shared timer's tick
        if (failed === undefined) reject(error);
        else resolve(failed(error));
      } catch (thrown) {
        reject(thrown);
      }
    };
    const deadline = new ReadDeadline(() => {
      fail(timedOut(ms));
      // The runtime holds the body locked while it reads; where it lets go, stop receiving it.
      from.body?.cancel().catch(() => {});
    });
    const waiting = queueFor(ms).add(deadline);
    reading.then((value) => {
      waiting.cancel();
      if (deadline.expired) return;
      try {
        resolve(then(value));
      } catch (error) {
        fail(error);
      }
    }, (error: unknown) => {
      waiting.cancel();
      if (!deadline.expired) fail(error);
    });
  });
}

/** A read's deadline, as the shared timer fires it. */
class ReadDeadline implements Due {
  /** Whether the deadline passed. */
  expired = false;
  readonly #onExpire: () => void;

  constructor(onExpire: () => void) {
    this.#onExpire = onExpire;
  }

  due(): void {
    this.expired = true;
    this.#onExpire();
  }
}

function queueFor(ms: number): DelayQueue {
  let queue = deadlines.get(ms);
  if (queue === undefined) deadlines.set(ms, queue = new DelayQueue(ms));
  return queue;
}

function decode(bytes: Uint8Array): string {
  try {
    return fatal.decode(bytes);
  } catch {
    throw notUtf8();
  }
}

/**
 * The refusal of a body past `maxBodyBytes`, as every body reader answers it.
 *
 * @param limit The limit, in bytes.
 * @returns `payload_too_large`.
 */
export function tooLarge(limit: number): ProtocolError {
  return new ProtocolError("payload_too_large", `Request body exceeds the limit of ${limit} bytes`, {
    data: { limit },
  });
}

/**
 * The refusal of a body still arriving after `bodyTimeoutMs`, as every body reader answers it.
 *
 * @param ms The delay, in milliseconds.
 * @returns `request_timeout`.
 */
export function timedOut(ms: number): ProtocolError {
  return new ProtocolError("request_timeout", `Request body did not arrive within ${ms} ms`, {
    data: { bodyTimeoutMs: ms },
  });
}

function notUtf8(): ProtocolError {
  return new ProtocolError("parse_error", "Parse error: the body is not valid UTF-8");
}
