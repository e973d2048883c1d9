/**
 * An extension served by passing its messages on (a proxied remote's, SEP-2133): every request and client
 * notification whose method is under the extension's identifier (`${id}/…`), or is one its official
 * specification names, is handed to a forwarder with who sent it, and its answer is the forwarder's. Internal:
 * `proxy()` serves its remote's extensions this way; an extension of yours names its methods (`defineExtension()`).
 *
 * @module
 */
import type { CallMeta } from "./call-meta.ts";
import type { AuthInfo } from "./host.ts";

/** A message passed on, with who sent it and the way back to them. */
export interface ForwardedMessage {
  /** The method. */
  readonly method: string;
  /** Its params, less MCP's own `_meta` (a progress token, the 2026-07-28 envelope: this hop's). */
  readonly params: Record<string, unknown>;
  /** Whether it is a notification (never answered). */
  readonly notification: boolean;
  /** The caller the server's authentication verified, if any. */
  readonly auth: AuthInfo | undefined;
  /** What is known of the caller (its session, its headers). */
  readonly meta: CallMeta;
  /** Aborts when the caller goes away or cancels. */
  readonly signal: AbortSignal;
  /**
   * Sends the caller a notification on the request's own stream (dropped where nothing streams).
   *
   * @param method The notification's method.
   * @param params Its params.
   */
  notify(method: string, params: Record<string, unknown>): void;
}

/** Answers a forwarded message: a request's result (a notification's is ignored). */
export type ExtensionForward = (message: ForwardedMessage) => Promise<Record<string, unknown>>;
