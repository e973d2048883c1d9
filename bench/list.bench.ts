/**
 * Scenario 1b: `tools/list` through `fetch(Request)`, in process, on every wire and peer, against the
 * floor fed the same request bytes (it serialises the same list on every request); then again with
 * `If-None-Match` set to the ETag of the first answer, on the servers that send one (a 304 or, where a
 * wire answers JSON-RPC anyway, a 200 both count).
 *
 * Run: `bun bench/list.bench.ts` · `deno run -A bench/list.bench.ts` · `npm run bench` (all runtimes).
 *
 * @module
 */
import { type Case, type FetchCase, runScenario } from "./harness.ts";
import { jsonPost, legacy, lite, modern } from "./requests.ts";
import type { Fetch } from "./servers/common.ts";
import { floorList } from "./servers/floor.ts";
import { mcpLite } from "./servers/mcp-lite.ts";
import { ours } from "./servers/ours.ts";
import { sdk } from "./servers/sdk.ts";
import { tmcp } from "./servers/tmcp.ts";

const LISTED = '"name":"add"';

/** The `If-None-Match` header for a server's current list, or why there is none. */
function etagOf(request: () => Request): FetchCase["prepare"] {
  return async (fetch: Fetch): Promise<Record<string, string> | { skip: string }> => {
    const response = await fetch(request());
    await response.arrayBuffer();
    const etag = response.headers.get("etag");
    return etag === null ? { skip: "no ETag sent" } : { "if-none-match": etag };
  };
}

const LITE = lite("/calltools", "tools/list", {});
const MODERN = modern("tools/list", {});
const LEGACY = legacy("tools/list", {});
const F_MODERN = "floor · MCP 2026-07-28 request";
const F_LEGACY = "floor · MCP 2025 request";

/** The rows: name, server, request, and the floor fed the same request bytes. */
const rows: [string, Fetch, () => Request, string][] = [
  ["ours · MCP-lite /listtools", ours.fetch, jsonPost("/mcp-lite/v1/listtools", {}), "floor"],
  ["ours · MCP-lite tools/list", ours.fetch, LITE, "floor"],
  ["ours · MCP 2026-07-28", ours.fetch, MODERN, F_MODERN],
  ["ours · MCP 2025", ours.fetch, LEGACY, F_LEGACY],
  ["mcp-lite · MCP 2025", mcpLite, LEGACY, F_LEGACY],
  ["tmcp · MCP 2026-07-28", tmcp, MODERN, F_MODERN],
  ["SDK v2 · MCP 2026-07-28", sdk, MODERN, F_MODERN],
];

const cases: Case[] = [
  { name: "floor", fetch: floorList, request: LITE, expect: LISTED },
  { name: F_MODERN, fetch: floorList, request: MODERN, expect: LISTED, floor: F_MODERN },
  { name: F_LEGACY, fetch: floorList, request: LEGACY, expect: LISTED, floor: F_LEGACY },
  ...rows.map(([name, fetch, request, floor]): FetchCase => ({ name, fetch, request, expect: LISTED, floor })),
  ...rows.map(([name, fetch, request, floor]): FetchCase => ({
    name: `${name} · If-None-Match`,
    fetch,
    request,
    floor,
    expect: "",
    status: [200, 304],
    prepare: etagOf(request),
  })),
];

await runScenario("tools/list", cases);
