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

/** Response headers for SSE bodies. */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
});
