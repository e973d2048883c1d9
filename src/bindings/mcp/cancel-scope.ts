/**
 * What an MCP request is cancellable within, in the long-running engine's table of running requests:
 * a connection (stdio, WebSocket; it also keeps the 2026-07-28 notification there), or over HTTP the
 * `Mcp-Session-Id` that `initialize` issued (MCP 2025-11-25, Cancellation; a call without one is not
 * cancellable). On HTTP under 2026-07-28, closing the stream is the cancellation.
 *
 * @module
 */
import type * as longRunning from "../../jobs/mod.ts";
import type { Era } from "./envelope.ts";

/** What {@link cancelScope} reads of a carrier (structurally: the carrier module imports this one). */
export interface PersistentOrNot {
  /** Whether the carrier is one connection that outlives its requests. */
  readonly persistent: boolean;
}

/**
 * Tells what a request is cancellable within: its connection on a persistent carrier; over HTTP, the
 * 2025 session it carries; nothing otherwise.
 *
 * @param carrier The carrier.
 * @param era The request's era.
 * @param session Its 2025 session id.
 * @returns The scope, or `undefined` when no notification can cancel the request.
 */
export function cancelScope(carrier: PersistentOrNot, era: Era, session: string | null): longRunning.Scope | undefined {
  if (carrier.persistent) return carrier;
  return era === "legacy" && session !== null ? session : undefined;
}
