/**
 * A Worker's `WebSocketPair` (workerd): the two ends of a new WebSocket, one kept, the other carried to the peer
 * by a 101 answer (Cloudflare Workers docs, "WebSockets").
 *
 * @module
 */

/** One end of the pair: a WebSocket that is accepted before use. */
export type PairedWebSocket = WebSocket & { accept(): void };

/** A Worker's `WebSocketPair`. */
type WebSocketPairLike = new () => Record<0 | 1, PairedWebSocket>;

/**
 * Makes a `WebSocketPair`, where it exists.
 *
 * @returns Its two ends (`1`: the one kept), or `undefined` when this is not workerd.
 */
export function webSocketPair(): Record<0 | 1, PairedWebSocket> | undefined {
  const Pair = (globalThis as { WebSocketPair?: WebSocketPairLike }).WebSocketPair;
  return Pair === undefined ? undefined : new Pair();
}
