/**
 * What a remote notifies outside any request besides its list changes, relayed to the proxy's listeners: its
 * resources' updates (`notifications/resources/updated`) to the callers that subscribed, on every wire that carries
 * them; its log messages (`notifications/message`, MCP 2025-11-25, Logging: on an MCP 2025 remote's standalone
 * stream, or between requests on stdio) to the MCP 2025 sessions that chose a level (`logging/setLevel`), from it
 * up (an MCP 2026-07-28 log is a request's); what a caller's own session sends, to that caller (./caller-sessions.ts).
 *
 * @module
 */
import { LOG_LEVELS, type LogLevel } from "../core/call/call-sink.ts";
import { UNKNOWN_CALLER } from "../core/call/caller-key.ts";
import type { Definitions } from "../core/definitions/registry.ts";
import type { Remote } from "./remote.ts";

/**
 * Relays the remote's resource updates and logs to the proxy server's listeners.
 *
 * @param remote The remote (a client given is not heard).
 * @param definitions The proxy server's definitions (its grouping server hears what they tell).
 * @param signal Stops relaying.
 * @param sessioned Whether callers have remote sessions of their own.
 */
export function relayRemoteNotices(
  remote: Remote,
  definitions: Definitions,
  signal: AbortSignal | undefined,
  sessioned: boolean,
): void {
  remote.listen?.((method, params, caller) => {
    if (signal?.aborted) return;
    // What a caller's own session sends is that caller's alone; the proxy's own session's is everyone's, or,
    // once callers have sessions of their own, theirs only who cannot be told apart (who go through it).
    const to = caller !== undefined ? { caller } : sessioned ? { caller: UNKNOWN_CALLER } : {};
    if (method === "notifications/resources/updated" && typeof params.uri === "string") {
      definitions.announce({ kind: "resource-updated", uri: params.uri, ...to });
    } else if (method === "notifications/message" && LOG_LEVELS.includes(params.level as LogLevel)) {
      const logger = typeof params.logger === "string" ? params.logger : undefined;
      definitions.announce({
        kind: "log",
        level: params.level as LogLevel,
        ...(logger && { logger }),
        data: params.data,
        ...to,
      });
    }
  });
}
