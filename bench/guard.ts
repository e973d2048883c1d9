/**
 * The `tools/call` regression guard for CI: times the floor and our `tools/call` on every HTTP wire in
 * one process (interleaved slices, medians), and fails only when a wire is grossly slower than the
 * floor measured in the same run: more than 3× the goal of 1.5× the floor, i.e. 4.5×. The rows: each
 * wire, the tool's other shapes (a string result, a declared output schema) and a body sent without
 * `Content-Length`. Never compares
 * absolute times, so a slow or busy CI machine does not fail it; a wire that answers wrongly fails it.
 * Takes about 15 s.
 *
 *   bun bench/guard.ts   ·   deno run -A bench/guard.ts   ·   npm run bench:guard
 *
 * @module
 */
import process from "node:process";
import { runScenario } from "./harness.ts";
import { ADD_PARAMS, jsonPost, legacy, lite, modern, rpc } from "./requests.ts";
import { floor, floorText } from "./servers/floor.ts";
import { oursShapes as ours } from "./servers/ours.ts";

/** The goal, as a multiple of the floor (in-process `tools/call` ≤ 1.5× the floor on every HTTP wire). */
const GOAL = 1.5;
/** Fail beyond this multiple of the goal. */
const SLACK = 3;

const SUM = '"structuredContent":{"sum":3}';
const TEXT = '"text":"3"';
const LITE = lite("/calltools", "tools/call", ADD_PARAMS);
const MODERN = modern("tools/call", ADD_PARAMS);
const LEGACY = legacy("tools/call", ADD_PARAMS);
const LITE_TEXT = lite("/calltools", "tools/call", { ...ADD_PARAMS, name: "add_text" });
const LITE_CHECKED = lite("/calltools", "tools/call", { ...ADD_PARAMS, name: "add_checked" });
const LITE_NO_LENGTH = jsonPost("/mcp-lite/v1/calltools", rpc("tools/call", ADD_PARAMS), {}, false);
// Each wire is compared with the floor fed the same request bytes.
const result = await runScenario("tools/call guard", [
  { name: "floor", fetch: floor, request: LITE, expect: SUM },
  { name: "floor 2026", fetch: floor, request: MODERN, expect: SUM, floor: "floor 2026" },
  { name: "floor 2025", fetch: floor, request: LEGACY, expect: SUM, floor: "floor 2025" },
  { name: "MCP-lite", fetch: ours.fetch, request: LITE, expect: SUM },
  { name: "MCP 2026-07-28", fetch: ours.fetch, request: MODERN, expect: SUM, floor: "floor 2026" },
  { name: "MCP 2025", fetch: ours.fetch, request: LEGACY, expect: SUM, floor: "floor 2025" },
  { name: "floor string", fetch: floorText, request: LITE_TEXT, expect: TEXT, floor: "floor string" },
  {
    name: "MCP-lite, string result",
    fetch: ours.fetch,
    request: LITE_TEXT,
    expect: TEXT,
    floor: "floor string",
  },
  { name: "MCP-lite, output schema", fetch: ours.fetch, request: LITE_CHECKED, expect: SUM },
  { name: "MCP-lite, no Content-Length", fetch: ours.fetch, request: LITE_NO_LENGTH, expect: SUM },
], { cpuMs: 1200 });

const limit = GOAL * SLACK;
let failed = false;
for (const [name, r] of Object.entries(result.cases)) {
  if (name.startsWith("floor")) {
    if (r.skipped !== undefined) throw new Error(`the floor failed: ${r.skipped}`);
    continue;
  }
  if (r.skipped !== undefined) {
    console.error(`FAIL ${name}: ${r.skipped}`);
    failed = true;
    continue;
  }
  const ratio = r.avg / result.cases[r.floor].avg;
  const verdict = ratio > limit ? "FAIL" : "ok";
  if (ratio > limit) failed = true;
  console.log(`${verdict.padEnd(4)} ${name}: ${ratio.toFixed(2)}× the floor (goal ≤ ${GOAL}×, fails above ${limit}×)`);
}
process.exit(failed ? 1 : 0);
