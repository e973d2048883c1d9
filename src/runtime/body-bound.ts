/**
 * Which request bodies a listener already bounds: a server's fetch handler declares the body limit it
 * reads within, `serve()` gives the runtime's listener that bound where the runtime offers one
 * (`Bun.serve`'s `maxRequestBodySize`, which answers 413 itself past it, a chunked body included) and
 * marks the requests it hands over. A body so marked is read with the runtime's own `arrayBuffer()`
 * even without a `Content-Length`; any other goes through the streaming bounded reader (`read-body.ts`).
 *
 * @module
 */

/** What a fetch handler declared: its body limit and its `bodyTimeoutMs` (0: none). */
interface BodyBound {
  /** The largest body, in bytes. */
  readonly maxBodyBytes: number;
  /** The longest a request may take to arrive, in ms (0: no limit). */
  readonly bodyTimeoutMs: number;
}

/** Where a fetch handler carries its {@link BodyBound}: a symbol-keyed property, a value on it, not a table beside it. */
const BOUND = /* @__PURE__ */ Symbol();
/** The mark of a request whose body the listener bounds at (at most) its server's limit, on the request. */
const BOUNDED = /* @__PURE__ */ Symbol();
/** Where a request carries its listener's own reader of a body of a declared length ({@link lendReader}). */
const READER = /* @__PURE__ */ Symbol();

/**
 * Declares the body limit a fetch handler reads within, for `serve()` to give the listener, and how
 * long a request may take to arrive (the listener's deadline for a request's head, `bodyTimeoutMs`).
 *
 * @param fetch The handler.
 * @param maxBodyBytes Its largest body, in bytes.
 * @param bodyTimeoutMs The longest a request may take to arrive, in ms (0: no limit).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bodyLimitOf, declareBodyLimit } from "./body-bound.ts";
 * const app = { fetch: () => new Response() };
 * declareBodyLimit(app.fetch, 1024);
 * assert.equal(bodyLimitOf(app), 1024);
 * ```
 */
export function declareBodyLimit(fetch: object, maxBodyBytes: number, bodyTimeoutMs = 0): void {
  (fetch as { [BOUND]?: BodyBound })[BOUND] = { maxBodyBytes, bodyTimeoutMs };
}

/**
 * The body limit an app's fetch handler declared, if it did.
 *
 * @param app The app (a `Server`, or any `{ fetch }`).
 * @returns The limit in bytes, or `undefined`.
 */
export function bodyLimitOf(app: { fetch: unknown }): number | undefined {
  return boundOf(app)?.maxBodyBytes;
}

/**
 * The longest a request may take to arrive, as an app's fetch handler declared it.
 *
 * @param app The app (a `Server`, or any `{ fetch }`).
 * @returns The deadline in ms, or `undefined` (none declared, or 0: no limit).
 */
export function bodyTimeoutOf(app: { fetch: unknown }): number | undefined {
  const ms = boundOf(app)?.bodyTimeoutMs;
  return ms === undefined || ms <= 0 ? undefined : ms;
}

/**
 * Marks a request whose body the listener refuses past the limit its server declared.
 *
 * @param request The request, as the listener hands it over.
 */
export function markBounded(request: Request): void {
  (request as { [BOUNDED]?: true })[BOUNDED] = true;
}

/**
 * Whether the listener bounds this request's body (see {@link markBounded}).
 *
 * @param request The request.
 * @returns `true` when it does.
 */
export function isBounded(request: Request): boolean {
  return BOUNDED in request;
}

/** What an app's fetch handler declared, if it is a function that did. */
function boundOf(app: { fetch: unknown }): BodyBound | undefined {
  const fetch = app.fetch;
  return typeof fetch === "function" ? (fetch as { [BOUND]?: BodyBound })[BOUND] : undefined;
}

/** A listener's own read of a body: its bytes once all in, and how to stop it (at a deadline). */
export interface DeclaredRead {
  /** The body's bytes, exactly its declared length. */
  readonly bytes: Promise<Uint8Array>;
  /** What it reads the body with (as a `Request`'s `body`): cancelled, the rest is not received and `bytes` rejects. */
  readonly body: { cancel(): Promise<void> };
}

/** How a listener reads a body of a declared length its own way; `undefined` leaves it to `text()`. */
export type DeclaredReader = (request: Request, length: number) => DeclaredRead | undefined;

/**
 * Lends a request the listener's own reader of a body of a declared length (`Deno.serve`'s: into one buffer of
 * that length, `deno/read-declared.ts`).
 *
 * @param request The request, as the listener hands it over.
 * @param reader The reader.
 */
export function lendReader(request: Request, reader: DeclaredReader): void {
  (request as { [READER]?: DeclaredReader })[READER] = reader;
}

/**
 * The reader a listener lent this request (see {@link lendReader}), if any.
 *
 * @param request The request.
 * @returns The reader, or `undefined`.
 */
export function readerOf(request: Request): DeclaredReader | undefined {
  return (request as { [READER]?: DeclaredReader })[READER];
}
