/**
 * What every 2026-07-28 result carries besides the method's own fields (MCP 2026-07-28, Results).
 *
 * @module
 */
import type { Envelope } from "./envelope.ts";

/**
 * Adds what every 2026-07-28 result carries: `resultType` (kept when the method set one) and the
 * server's identity in `_meta`. 2025-era results pass unchanged.
 *
 * @param result The method's result.
 * @param envelope The request's envelope.
 * @param serverInfo The `_meta` entry naming the server.
 * @returns The result to send.
 */
export function finishResult(
  result: Record<string, unknown>,
  envelope: Envelope,
  serverInfo: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  if (envelope.era !== "modern") return result;
  const meta = result._meta as Record<string, unknown> | undefined;
  return {
    ...result,
    resultType: result.resultType ?? "complete",
    _meta: meta === undefined ? serverInfo : { ...meta, ...serverInfo },
  };
}
