/**
 * `ssePolling()`: SSE polling of 2025-11-25 calls, as a value `mcpBinding({ ssePolling })` is given, so that a
 * server that does not poll bundles none of it (the resumable streams, the GET that resumes one).
 *
 * @module
 */
import { type Capability, capability, type Route } from "../../server/mod.ts";
import type { McpContext } from "./mcp-request.ts";
import { ResumableStreams } from "./resumable.ts";

/** What `ssePolling()` is to the binding: given the binding and its route, the route with polling. */
export type PollingSupport = (ctx: McpContext, route: Route) => Route;

/**
 * SSE polling for 2025-11-25 clients, for `mcpBinding({ ssePolling: ssePolling({ closeAfterMs }) })` (MCP
 * 2025-11-25, Transports: "Resumability and Redelivery"; SEP-1699), for hosts and proxies that cut long responses:
 * a call answered as an SSE stream opens it with a priming event (an event id, `retry: retryMs`, empty data), gives
 * each event an id, and closes the connection `closeAfterMs` after it opened while the call runs on; the client comes
 * back after `retryMs` with a GET carrying `Last-Event-ID`, and gets what it missed, then the rest (closed again after
 * `closeAfterMs`), the result last. A client that does not come back within ten `retryMs` (at least 30 s) has its
 * call aborted. The events wait in this process: route a 2025 session's requests to one instance (by
 * `Mcp-Session-Id`). Other revisions are not affected. The value brings its code: a server without it bundles none.
 *
 * @param options How long each connection stays open, and the client's delay before it reconnects.
 * @returns The polling (opaque: `mcpBinding({ ssePolling })` takes it as it is).
 * @throws {TypeError} When `closeAfterMs` is not a whole number of ms ≥ 1, or `retryMs` one ≥ 0 (both below 2³¹).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer, mcpBinding, ssePolling } from "../../../mod.ts";
 * const server = createServer({
 *   name: "behind-a-proxy",
 *   version: "1.0.0",
 *   bindings: [mcpBinding({ ssePolling: ssePolling({ closeAfterMs: 25_000, retryMs: 1_000 }) })],
 * });
 * // A GET without Last-Event-ID resumes nothing: this endpoint offers no standalone stream.
 * const get = await server.fetch(new Request("http://localhost/mcp", { headers: { accept: "text/event-stream" } }));
 * assert.equal(get.status, 405);
 * ```
 */
export function ssePolling(options: {
  /** How long each connection of a call's stream stays open while the call runs, in ms. */
  readonly closeAfterMs: number;
  /** How long the client waits before it reconnects, in ms (the `retry` field; default 1 000). */
  readonly retryMs?: number;
}): Capability<"ssePolling"> {
  const { closeAfterMs, retryMs = 1_000 } = options;
  const inRange = (ms: number, least: number) => Number.isSafeInteger(ms) && ms >= least && ms < 2 ** 31;
  if (!inRange(closeAfterMs, 1)) throw new TypeError("ssePolling.closeAfterMs must be a whole number of ms, ≥ 1");
  if (!inRange(retryMs, 0)) throw new TypeError("ssePolling.retryMs must be a whole number of ms, ≥ 0");
  const settings = Object.freeze({ closeAfterMs, retryMs });
  const support: PollingSupport = (ctx, route) => new ResumableStreams(settings, ctx).serve(route);
  return capability("ssePolling", support);
}
