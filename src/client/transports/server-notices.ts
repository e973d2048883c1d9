/**
 * What a server notifies outside any request (`notifications/tools/list_changed` and its kin, MCP 2025-11-25,
 * Tools: list changed), for the transports that hold a connection open (stdio); internal, not exported, so
 * that the one-call client bundle stays without it. The proxy follows a remote's lists by it.
 *
 * @module
 */

/** Receives one server notification: its method and params. */
export type NoticeListener = (method: string, params: Record<string, unknown>) => void;

/** The key under which a transport takes {@link NoticeListener}s. */
export const SERVER_NOTICES: unique symbol = Symbol("mcplite.serverNotices");

/** A transport that hands over what the server notifies outside any request. */
export interface NoticeSource {
  /** Adds a listener; returns its removal. */
  [SERVER_NOTICES](listener: NoticeListener): () => void;
}

/**
 * The notice source of a transport, if it is one.
 *
 * @param transport The transport.
 * @returns It, as a source; `undefined` when it hears no notifications.
 */
export function noticesOf(transport: unknown): NoticeSource | undefined {
  return typeof transport === "object" && transport !== null && SERVER_NOTICES in transport
    ? transport as NoticeSource
    : undefined;
}
