/**
 * A remote result's `_meta` as ours: the remote's own keys kept (a cost, a cache status, an app's data),
 * its wire's keys left out, since they describe the second hop, not the result: MCP's reserved keys
 * (`io.modelcontextprotocol/serverInfo`, the related task's id; MCP 2025-11-25, Basic: `_meta`), which
 * a handler may not send either, and an MCP-lite remote's own fields (MCP-lite spec v0.042 §3.3:
 * `response_type`, `timestamp`…). Our wire then adds its own keys over the rest.
 *
 * @module
 */
import { isReservedMetaKey } from "../core/call/result-meta.ts";

/** The `_meta` fields of every MCP-lite result (MCP-lite spec v0.042 §3.3). */
const MCP_LITE_FIELDS: ReadonlySet<string> = new Set([
  "response_type",
  "timestamp",
  "processing_time_ms",
  "server_version",
  "promise_token",
  "retry_after_ms",
  "estimated_completion",
  "expires_at",
  "input_requests",
  "request_state",
]);

/**
 * The keys of a remote result's `_meta` that are the result's own.
 *
 * @param meta The remote result's `_meta`.
 * @param wire The wire the remote speaks (`mcp-lite`'s fields are its own).
 * @returns Those keys, or `undefined` when none is left.
 */
export function remoteResultMeta(meta: unknown, wire: string): Record<string, unknown> | undefined {
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) return undefined;
  const kept = Object.entries(meta).filter(([key]) =>
    !isReservedMetaKey(key) && !(wire === "mcp-lite" && MCP_LITE_FIELDS.has(key))
  );
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
}
