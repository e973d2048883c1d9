/**
 * Scenario 1b: `tools/list` through `fetch(Request)`, in process, on every wire and peer, against the
 * floor (which serialises the same list on every request); then again with `If-None-Match` set to the
 * ETag of the first answer, on the servers that send one.
 *
 * Run: `bun bench/list.bench.ts` · `deno run -A bench/list.bench.ts` · `npm run bench` (all runtimes).
 *
 * @module
 */
import { type Case, type FetchCase, runScenario } from "./harness.ts";
import { jsonPost, legacy, lite, modern, rpc } from "./requests.ts";
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

const rows: [string, Fetch, () => Request][] = [
  ["ours · MCP-lite /listtools", ours.fetch, jsonPost("/mcp-lite/v1/listtools", {})],
  ["ours · MCP-lite tools/list", ours.fetch, lite("/calltools", "tools/list", {})],
  ["ours · MCP 2026-07-28", ours.fetch, modern("tools/list", {})],
  ["ours · MCP 2025", ours.fetch, legacy("tools/list", {})],
  ["mcp-lite · MCP 2025", mcpLite, legacy("tools/list", {})],
  ["tmcp · MCP 2026-07-28", tmcp, modern("tools/list", {})],
  ["SDK v2 · MCP 2026-07-28", sdk, modern("tools/list", {})],
];

const cases: Case[] = [
  { name: "floor", fetch: floorList, request: jsonPost("/mcp", rpc("tools/list", {})), expect: LISTED },
  ...rows.map(([name, fetch, request]): FetchCase => ({ name, fetch, request, expect: LISTED })),
  ...rows.map(([name, fetch, request]): FetchCase => ({
    name: `${name} · If-None-Match`,
    fetch,
    request,
    expect: "",
    status: [200, 304],
    prepare: etagOf(request),
  })),
];

await runScenario("tools/list", cases);
