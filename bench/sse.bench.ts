/**
 * Scenario 1c: a streaming tool's SSE throughput, in process. The tool yields `STREAM.chunks` chunks of
 * `STREAM.size` bytes; each case reads the whole event stream. Each floor writes the protocol messages
 * its wire needs (per chunk, then the complete result) from a bare `ReadableStream`, serialising each
 * chunk as it comes, with nothing else around them. Bytes per second = body size / time.
 *
 * The peers have no streaming-tool equivalent in their stateless modes (mcp-lite needs a session
 * adapter for progress; tmcp and the SDK stream only notifications), so this scenario is ours alone.
 *
 * Run: `bun bench/sse.bench.ts` · `deno run -A bench/sse.bench.ts` · `npm run bench` (all runtimes).
 *
 * @module
 */
import { runScenario } from "./harness.ts";
import { jsonPost, lite, modern, rpc } from "./requests.ts";
import { STREAM } from "./servers/common.ts";
import { floorMcpSse, floorSse } from "./servers/floor.ts";
import { oursStreaming } from "./servers/ours.ts";

const params = { name: "stream", arguments: { n: STREAM.chunks } };
const SSE = "text/event-stream";

// A .stream() tool's chunks go out as notifications/partial only to a request that asks for them, as our client does
// when it streams (`_meta["io.mcplite/partials"]`); without it MCP answers the whole text at once.
const MCP_REQUEST = modern("tools/call", { ...params, _meta: { progressToken: "p", "io.mcplite/partials": true } });
const F_MCP = "floor · MCP messages";

await runScenario("SSE stream", [
  {
    name: "floor",
    fetch: floorSse,
    request: jsonPost("/mcp", rpc("tools/call", params), { accept: SSE }),
    expect: "data:",
  },
  { name: F_MCP, fetch: floorMcpSse, request: MCP_REQUEST, expect: "notifications/partial", floor: F_MCP },
  {
    name: "ours · MCP-lite SSE",
    fetch: oursStreaming.fetch,
    request: lite("/calltools", "tools/call", params, SSE),
    expect: "event: done",
  },
  {
    name: "ours · MCP 2026-07-28 SSE (partials)",
    fetch: oursStreaming.fetch,
    request: MCP_REQUEST,
    expect: "notifications/partial",
    floor: F_MCP,
  },
]);
