/**
 * A caller's log level, set in its own session at an MCP 2025 remote (`logging/setLevel`, MCP 2025-11-25,
 * Logging): the remote's level is its session's, so only in a session of the caller's own (./caller-sessions.ts)
 * may the caller's level be set there, never in one another caller shares. Sent before a call when the level the
 * caller asks for differs from the one last set in that session, so the remote logs from that level up.
 *
 * @module
 */
import type { Client } from "../client/client.ts";

/** Where a caller's client carries the level last set in its session: a value on it, not a table beside it. */
const LEVEL = /* @__PURE__ */ Symbol();

/**
 * Sets the caller's level in its own session, if it changed.
 *
 * @param client The caller's own client (its session).
 * @param level The level the caller asks for, if any.
 * @returns When set (a remote that refuses it keeps its own: the gateway filters what it sends anyway).
 */
export async function setSessionLevel(client: Client, level: string | undefined): Promise<void> {
  const carried = client as { [LEVEL]?: string };
  if (level === undefined || carried[LEVEL] === level) return;
  carried[LEVEL] = level;
  try {
    await client.request("logging/setLevel", { level });
  } catch {
    // see above
  }
}
