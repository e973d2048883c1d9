/**
 * The bound on what the client reads of one answer (`maxResponseBytes`): a JSON body, one SSE event,
 * one gRPC message, one WebSocket message or stdio line. A body is read chunk by chunk with a running
 * count and cancelled as soon as it passes the bound, so that a server cannot make the client hold
 * more than that per answer. What a read holds may also be counted elsewhere (a proxy counts its
 * remote's answers against its server's budgets): a tally registered for the request's signal.
 *
 * @module
 */
import { clientError } from "./errors.ts";
import { McpliteError } from "../errors/error.ts";

/**
 * The default `maxResponseBytes`: 16 MiB, four times a server's default request body (`maxBodyBytes`), with room for a
 * large API's `tools/list` (Stripe's 452 imported tools list about 8 MB of schemas).
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** Counts the bytes a read holds; `take` throws to refuse them (the read then stops). */
export interface ResponseTally {
  /** Takes `bytes` more, or throws. */
  take(bytes: number): void;
  /** Gives back `bytes` taken. */
  give(bytes: number): void;
}

/**
 * Where a signal carries the tally of the reads made under it (a call's, and the signals of the requests
 * made for it): a value on the signal, not a table beside it.
 */
const TALLY = /* @__PURE__ */ Symbol();

/**
 * Counts the answers read under `signal` (and signals derived from it with {@link inheritTally}) in `tally`.
 *
 * @param signal The call's signal.
 * @param tally The tally.
 */
export function countResponses(signal: AbortSignal, tally: ResponseTally): void {
  (signal as { [TALLY]?: ResponseTally })[TALLY] = tally;
}

/**
 * Carries a signal's tally to a signal made from it (a request's deadline).
 *
 * @param from The caller's signal, if any.
 * @param to The derived signal.
 */
export function inheritTally(from: AbortSignal | undefined, to: AbortSignal): void {
  const tally = tallyOf(from);
  if (tally !== undefined) countResponses(to, tally);
}

/**
 * The tally of a signal's reads, if one was registered.
 *
 * @param signal The signal.
 * @returns The tally.
 */
export function tallyOf(signal: AbortSignal | undefined): ResponseTally | undefined {
  return signal === undefined ? undefined : (signal as { [TALLY]?: ResponseTally })[TALLY];
}

/**
 * Checks a `maxResponseBytes` option.
 *
 * @param value The option.
 * @returns The bound (the default when `undefined`).
 * @throws {TypeError} When it is not a positive number.
 */
export function responseBound(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_RESPONSE_BYTES;
  if (typeof value !== "number" || !(value > 0)) {
    throw new TypeError("maxResponseBytes must be a positive number of bytes (Infinity: no bound)");
  }
  return value;
}

/**
 * The error of an answer past the bound: `payload_too_large`, naming the bound and the option.
 *
 * @param limit The bound, in bytes.
 * @param what What passed it (`the response body`, `an SSE event`, …).
 * @param rest What became of the rest (a WebSocket message arrives whole: nothing is left unread).
 * @returns The error, with `data: { maxResponseBytes }`.
 */
export function responseTooLarge(limit: number, what: string, rest = ": the rest was not read"): McpliteError {
  return clientError(
    "payload_too_large",
    `${what} exceeds the client's limit of ${limit} bytes (maxResponseBytes)${rest}`,
    { data: { maxResponseBytes: limit } },
  );
}

/**
 * Tells whether an error is an answer past the client's bound (not a server's 413).
 *
 * @param error What was thrown.
 * @returns `true` for the error {@link responseTooLarge} makes.
 */
export function isResponseTooLarge(error: unknown): error is McpliteError & { data: { maxResponseBytes: number } } {
  return error instanceof McpliteError && error.code === "payload_too_large" &&
    typeof (error.data as { maxResponseBytes?: unknown } | undefined)?.maxResponseBytes === "number";
}

/**
 * Reads a response body as text within `limit` bytes: a declared `Content-Length` past it is refused
 * unread, one within it read whole (unless the body is content-encoded, which `fetch` decodes), any other
 * body counted as it arrives and cancelled once past it. The bytes read are held
 * against the signal's tally until the text is made.
 *
 * @param response The response.
 * @param limit The bound, in bytes.
 * @param signal The request's signal (its tally counts the bytes).
 * @returns The body's text (malformed UTF-8 replaced, as `Response.text()` does).
 * @throws {McpliteError} `payload_too_large` past the bound; whatever the body's stream or the tally throws.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readBoundedText } from "./response-bound.ts";
 * assert.equal(await readBoundedText(new Response("hi"), 10), "hi");
 * await assert.rejects(readBoundedText(new Response("too long"), 4), /maxResponseBytes/);
 * ```
 */
export async function readBoundedText(response: Response, limit: number, signal?: AbortSignal): Promise<string> {
  const body = response.body;
  if (body === null) return "";
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (Number.isSafeInteger(declared) && declared > limit) {
    await body.cancel().catch(() => {});
    throw responseTooLarge(limit, "The response body");
  }
  const tally = tallyOf(signal);
  if (Number.isSafeInteger(declared) && !encoded(response)) {
    // The framing bounds the body at its declared length (RFC 9112 §6.3): the runtime's own read is safe, and fastest.
    try {
      tally?.take(declared);
    } catch (error) {
      await body.cancel().catch(() => {});
      throw error;
    }
    try {
      return await response.text();
    } finally {
      tally?.give(declared);
    }
  }
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let held = 0;
  let done = false;
  try {
    while (true) {
      const chunk = await reader.read();
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > limit) throw responseTooLarge(limit, "The response body");
      tally?.take(chunk.value.byteLength);
      held += chunk.value.byteLength;
      chunks.push(chunk.value);
    }
    done = true;
    const decoder = new TextDecoder();
    let text = "";
    for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
    return text + decoder.decode();
  } finally {
    if (!done) await reader.cancel().catch(() => {}); // refused or broken: the rest is not wanted
    reader.releaseLock();
    if (held > 0) tally?.give(held);
  }
}

/** Whether the body was sent encoded (gzip, br, …): `fetch` decodes it, so its declared length says nothing of its size. */
function encoded(response: Response): boolean {
  const coding = response.headers.get("content-encoding");
  return coding !== null && coding.trim().toLowerCase() !== "identity";
}

/**
 * Reads the start of a response body, at most `limit` bytes, and cancels the rest (an error page's
 * text for a message).
 *
 * @param response The response.
 * @param limit The most bytes to read.
 * @returns The text read.
 */
export async function readBodyStart(response: Response, limit: number): Promise<string> {
  const body = response.body;
  if (body === null) return "";
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  try {
    while (size < limit) {
      const chunk = await reader.read();
      if (chunk.done) return text + decoder.decode();
      size += chunk.value.byteLength;
      text += decoder.decode(chunk.value, { stream: true });
    }
    return text;
  } finally {
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
