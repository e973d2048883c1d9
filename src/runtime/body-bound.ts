/**
 * Which request bodies a listener already bounds: a server's fetch handler declares the body limit it
 * reads within, `serve()` gives the runtime's listener that bound where the runtime offers one
 * (`Bun.serve`'s `maxRequestBodySize`, which answers 413 itself past it, a chunked body included) and
 * marks the requests it hands over. A body so marked is read with the runtime's own `arrayBuffer()`
 * even without a `Content-Length`; any other goes through the streaming bounded reader (`read-body.ts`).
 *
 * @module
 */

/** The body limit of each server's fetch handler, by the handler. */
const limits = new WeakMap<object, number>();
/** The `bodyTimeoutMs` of each server's fetch handler, by the handler (0: none). */
const timeouts = new WeakMap<object, number>();
/** The requests whose body the listener bounds at (at most) their server's limit. */
const bounded = new WeakSet<Request>();

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
  limits.set(fetch, maxBodyBytes);
  timeouts.set(fetch, bodyTimeoutMs);
}

/**
 * The body limit an app's fetch handler declared, if it did.
 *
 * @param app The app (a `Server`, or any `{ fetch }`).
 * @returns The limit in bytes, or `undefined`.
 */
export function bodyLimitOf(app: { fetch: unknown }): number | undefined {
  const fetch = app.fetch;
  return typeof fetch === "function" ? limits.get(fetch) : undefined;
}

/**
 * The longest a request may take to arrive, as an app's fetch handler declared it.
 *
 * @param app The app (a `Server`, or any `{ fetch }`).
 * @returns The deadline in ms, or `undefined` (none declared, or 0: no limit).
 */
export function bodyTimeoutOf(app: { fetch: unknown }): number | undefined {
  const fetch = app.fetch;
  const ms = typeof fetch === "function" ? timeouts.get(fetch) : undefined;
  return ms === undefined || ms <= 0 ? undefined : ms;
}

/**
 * Marks a request whose body the listener refuses past the limit its server declared.
 *
 * @param request The request, as the listener hands it over.
 */
export function markBounded(request: Request): void {
  bounded.add(request);
}

/**
 * Whether the listener bounds this request's body (see {@link markBounded}).
 *
 * @param request The request.
 * @returns `true` when it does.
 */
export function isBounded(request: Request): boolean {
  return bounded.has(request);
}
