/**
 * The requests a session of the benchmark's k6 script opens with (`benchmark/benchmark.js`): its headers, its
 * `initialize` (protocol 2024-11-05, client `k6-bench`) and `notifications/initialized`. Shared by the load
 * generator (`load.ts`) and the session-only driver (`sessions.ts`).
 *
 * @module
 */

/** The headers of every MCP request the script sends. */
export const HEADERS: Readonly<Record<string, string>> = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** The script's `initialize`. */
export const INITIALIZE: string = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "k6-bench", version: "1.0" } },
});

/** The script's `notifications/initialized`. */
export const INITIALIZED: string = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
