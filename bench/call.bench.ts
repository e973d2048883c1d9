/**
 * Scenario 1a: `tools/call` of a validated `add({a, b})` through `fetch(Request)`, in process, on every
 * wire we serve (MCP-lite, MCP 2026-07-28, MCP 2025, and Connect over the gRPC binding's fetch routes)
 * and on every peer, against the floor fed the same request bytes. One more row sends the MCP-lite
 * call without `Content-Length`, as a chunked upload would: the server then reads the body chunk by
 * chunk to enforce its limit. The `add` tool's other shapes (a string result, against a floor answering
 * that result; a declared output schema, validated on every call) have rows of their own, and so has
 * the MCP-lite call through `otel()` with no OpenTelemetry SDK registered (`bench/otel.bench.ts` times it
 * in CPU time, with an SDK too). Last, the request-shape matrix (`SHAPES` in `bench/requests.ts`): each
 * shape real clients send, on MCP 2026-07-28 and MCP-lite, against a floor fed the same bytes.
 *
 * Run: `bun bench/call.bench.ts` · `deno run -A bench/call.bench.ts` · `npm run bench` (all runtimes).
 *
 * @module
 */
import { runScenario } from "./harness.ts";
import { ADD_PARAMS, jsonPost, legacy, lite, modern, rpc, SHAPES } from "./requests.ts";
import { floor, floorLiteDone, floorText } from "./servers/floor.ts";
import { mcpLite } from "./servers/mcp-lite.ts";
import { ours, oursShapes, oursTraced } from "./servers/ours.ts";
import { oursGrpc } from "./servers/ours-grpc.ts";
import { sdk } from "./servers/sdk.ts";
import { tmcp } from "./servers/tmcp.ts";

const SUM = '"structuredContent":{"sum":3}';
const LITE = lite("/calltools", "tools/call", ADD_PARAMS);
const MODERN = modern("tools/call", ADD_PARAMS);
const LEGACY = legacy("tools/call", ADD_PARAMS);
const F_MODERN = "floor · MCP 2026-07-28 request";
const F_TEXT = "floor · string result";
const TEXT = '"text":"3"';
const LITE_TEXT = lite("/calltools", "tools/call", { ...ADD_PARAMS, name: "add_text" });
const F_TEXT_MODERN = "floor · MCP 2026-07-28 request, string result";
const MODERN_TEXT = modern("tools/call", { ...ADD_PARAMS, name: "add_text" });
const LITE_CHECKED = lite("/calltools", "tools/call", { ...ADD_PARAMS, name: "add_checked" });
const F_LEGACY = "floor · MCP 2025 request";

await runScenario("tools/call", [
  { name: "floor", fetch: floor, request: LITE, expect: SUM },
  { name: F_MODERN, fetch: floor, request: MODERN, expect: SUM, floor: F_MODERN },
  { name: F_LEGACY, fetch: floor, request: LEGACY, expect: SUM, floor: F_LEGACY },
  { name: "ours · MCP-lite", fetch: ours.fetch, request: LITE, expect: SUM },
  { name: "ours · MCP-lite, otel() without a provider", fetch: oursTraced.fetch, request: LITE, expect: SUM },
  { name: "ours · MCP 2026-07-28", fetch: ours.fetch, request: MODERN, expect: SUM, floor: F_MODERN },
  { name: "ours · MCP 2025", fetch: ours.fetch, request: LEGACY, expect: SUM, floor: F_LEGACY },
  {
    name: "ours · Connect JSON (gRPC binding on fetch)",
    fetch: oursGrpc.fetch,
    request: jsonPost("/mcplite.MCPLite/CallTool", ADD_PARAMS),
    expect: SUM,
  },
  { name: "floor · string result", fetch: floorText, request: LITE_TEXT, expect: TEXT, floor: F_TEXT },
  { name: "ours · MCP-lite, string result", fetch: oursShapes.fetch, request: LITE_TEXT, expect: TEXT, floor: F_TEXT },
  { name: "ours · MCP-lite, output schema", fetch: oursShapes.fetch, request: LITE_CHECKED, expect: SUM },
  { name: F_TEXT_MODERN, fetch: floorText, request: MODERN_TEXT, expect: TEXT, floor: F_TEXT_MODERN },
  {
    name: "ours · MCP 2026-07-28, string result",
    fetch: oursShapes.fetch,
    request: MODERN_TEXT,
    expect: TEXT,
    floor: F_TEXT_MODERN,
  },
  {
    name: "ours · MCP-lite, no Content-Length",
    fetch: ours.fetch,
    request: jsonPost("/mcp-lite/v1/calltools", rpc("tools/call", ADD_PARAMS), {}, false),
    expect: SUM,
  },
  { name: "mcp-lite · MCP 2025", fetch: mcpLite, request: LEGACY, expect: SUM, floor: F_LEGACY },
  { name: "tmcp · MCP 2026-07-28", fetch: tmcp, request: MODERN, expect: SUM, floor: F_MODERN },
  { name: "SDK v2 · MCP 2026-07-28", fetch: sdk, request: MODERN, expect: SUM, floor: F_MODERN },
  { name: "SDK v2 · MCP 2025", fetch: sdk, request: LEGACY, expect: SUM, floor: F_LEGACY },
  ...SHAPES.flatMap(({ name, result, request, stream }) => {
    const expect = result === "string" ? TEXT : SUM;
    const base = `floor · ${name}`;
    const floorOf = stream ? floorLiteDone : result === "string" ? floorText : floor;
    return [
      { name: base, fetch: floorOf, request, expect, floor: base },
      { name: `ours · ${name}`, fetch: oursShapes.fetch, request, expect, floor: base },
    ];
  }),
]);
