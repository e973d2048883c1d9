/**
 * The options of SSE polling of 2025-11-25 calls (`sessionStreams({ polling })`), checked as the value is made; the
 * polling itself is `resumable.ts`.
 *
 * @module
 */
import type { PollingSettings } from "./resumable.ts";

/**
 * SSE polling for 2025-11-25 clients (MCP 2025-11-25, Transports: "Resumability and Redelivery"; SEP-1699), for hosts
 * and proxies that cut long responses: `sessionStreams({ polling: { closeAfterMs, retryMs } })`.
 */
export interface SsePollingOptions {
  /** How long each connection of a call's stream stays open while the call runs, in ms. */
  readonly closeAfterMs: number;
  /** How long the client waits before it reconnects, in ms (the `retry` field; default 1 000). */
  readonly retryMs?: number;
}

/**
 * Checks the polling options and applies the default.
 *
 * @param options The options.
 * @returns The settings, frozen.
 * @throws {TypeError} When `closeAfterMs` is not a whole number of ms ≥ 1, or `retryMs` one ≥ 0 (both below 2³¹).
 */
export function pollingSettings(options: SsePollingOptions): PollingSettings {
  const { closeAfterMs, retryMs = 1_000 } = options;
  const inRange = (ms: number, least: number) => Number.isSafeInteger(ms) && ms >= least && ms < 2 ** 31;
  if (!inRange(closeAfterMs, 1)) throw new TypeError("polling.closeAfterMs must be a whole number of ms, ≥ 1");
  if (!inRange(retryMs, 0)) throw new TypeError("polling.retryMs must be a whole number of ms, ≥ 0");
  return Object.freeze({ closeAfterMs, retryMs });
}
