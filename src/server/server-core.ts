/**
 * What a binding receives from the server: the registry and the resolved options. Bindings return
 * routes; the server owns the one `fetch`.
 *
 * @module
 */
import type { Registry } from "../core/registry.ts";
import type { ResolvedOptions } from "./options.ts";

/** The shared state every binding reads. */
export interface ServerCore {
  /** The tools and middleware. */
  readonly registry: Registry;
  /** The resolved server options. */
  readonly options: ResolvedOptions;
}

/** Handles the requests of one path. */
export type RouteHandler = (request: Request) => Promise<Response>;

/**
 * The routes a binding mounts: paths to handlers. A path ending in `/*` matches every path under it
 * (e.g. `/webtools/*` matches `/webtools/2`); other paths match exactly.
 */
export type Routes = Map<string, RouteHandler>;

/** A binding: given the server's core, the routes it serves. `server.mount()` takes one. */
export type Binding = (core: ServerCore) => Routes;

/** Response headers for JSON bodies; `Response` copies them, so one object serves every response. */
export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "application/json",
});

const IS_BUN = "Bun" in globalThis;

/**
 * Builds, once, the init of 200 JSON responses that carry more headers (an `ETag`, `Cache-Control`),
 * in the form the runtime copies fastest (see {@link JSON_INIT}).
 *
 * @param headers Headers besides `Content-Type`.
 * @param status The status; 200 by default.
 * @returns The init, to share between responses.
 */
export function jsonInit(headers: Readonly<Record<string, string>> = {}, status = 200): ResponseInit {
  const all = status === 304 ? { ...headers } : { ...JSON_HEADERS, ...headers };
  return Object.freeze({ status, headers: IS_BUN ? new Headers(all) : Object.freeze(all) });
}

/**
 * The init of a 200 response with a serialised JSON body. `Response` copies its headers either way,
 * but Bun copies a `Headers` faster than a record and Deno the other way round (measured with
 * mitata), so one shared init of the faster kind serves every such answer.
 */
export const JSON_INIT: ResponseInit = jsonInit();

/**
 * The init of `Response.json(value, JSON_VALUE_INIT)`, the cheapest JSON answer on every runtime.
 * Deno, Node and Workers already label it `application/json`; Bun says `application/json;charset=utf-8`
 * unless told, so it gets the header and the wire reads the same everywhere.
 */
export const JSON_VALUE_INIT: ResponseInit | undefined = IS_BUN ? JSON_INIT : undefined;

/** Response headers for SSE bodies. */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
});
