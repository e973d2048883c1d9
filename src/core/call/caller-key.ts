/**
 * Who a caller is, as a key that tells two callers apart across their requests: the principal the server's
 * `auth` verified (its subject, with the OAuth client acting for it), else the caller's MCP 2025 session
 * (`Mcp-Session-Id` over HTTP; on a stdio or WebSocket connection, the session `initialize` opened there: MCP
 * 2025-11-25, Lifecycle). A stateless caller without an identity (MCP 2026-07-28, MCP-lite, in process) has none.
 * A proxy keeps one remote session per key, and what such a session sends outside requests goes to that key only.
 *
 * @module
 */
import type { AuthInfo } from "./host.ts";

/**
 * The key of a caller.
 *
 * @param auth The caller the server's authentication verified, if any.
 * @param sessionId The caller's MCP 2025 session, if any.
 * @returns The key, or `undefined` when the caller cannot be told apart from another.
 */
export function callerKey(auth: AuthInfo | undefined, sessionId: string | null | undefined): string | undefined {
  const subject = auth?.subject;
  if (typeof subject === "string" && subject !== "") {
    return `principal ${JSON.stringify([subject, typeof auth?.clientId === "string" ? auth.clientId : null])}`;
  }
  return typeof sessionId === "string" && sessionId !== "" ? `session ${sessionId}` : undefined;
}

/** The `caller` of a change meant for the callers that cannot be told apart (a proxy's own remote session's). */
export const UNKNOWN_CALLER = "";

/**
 * Whether a change meant for a caller (or for all: no `caller`) is heard by one.
 *
 * @param change The change (its `caller`, if any).
 * @param key The hearer's key, if it can be told apart.
 * @returns Whether it is heard.
 */
export function heardBy(change: { readonly caller?: string }, key: string | undefined): boolean {
  return change.caller === undefined || change.caller === (key ?? UNKNOWN_CALLER);
}
