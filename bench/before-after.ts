/**
 * Before and after, measured alongside: the same server (the `add` tool, every HTTP wire) built from
 * this checkout's `mod.ts` and from another checkout of the SDK (an earlier commit), timed in one
 * process with interleaved slices, each compared with the floor of its request. With `--middleware`,
 * both servers also carry one pass-through middleware (`server.use()`), the cost a typical
 * authentication check adds.
 *
 *   git worktree add /tmp/before <commit> && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   bun bench/before-after.ts --before /tmp/before [--middleware]
 *   deno run -A bench/before-after.ts --before /tmp/before [--middleware]
 *
 * @module
 */
import process from "node:process";
import { pathToFileURL } from "node:url";
import * as v from "valibot";
import * as after from "../mod.ts";
import { runScenario } from "./harness.ts";
import { ADD_PARAMS, legacy, lite, modern } from "./requests.ts";
import type { Fetch } from "./servers/common.ts";
import { floor } from "./servers/floor.ts";

const at = process.argv.indexOf("--before");
if (at < 0 || process.argv[at + 1] === undefined) {
  console.error("usage: bench/before-after.ts --before <checkout of the earlier commit> [--middleware]");
  process.exit(2);
}
const withMiddleware = process.argv.includes("--middleware");
const before = await import(pathToFileURL(`${process.argv[at + 1]}/mod.ts`).href) as typeof after;

/** The same server from either checkout: `add`, the default bindings (MCP-lite and MCP). */
function build(sdk: typeof after): Fetch {
  const add = sdk.defineTool("add")
    .describe("Adds two numbers")
    .input(v.object({ a: v.number(), b: v.number() }))
    .handle(({ a, b }) => ({ sum: a + b }));
  const server = sdk.createServer({ name: "bench", version: "1.0.0" }).tool(add);
  // One pass-through middleware, the shape both versions accept.
  if (withMiddleware) server.use((_call, next) => next() as never);
  return server.fetch;
}

const SUM = '"structuredContent":{"sum":3}';
const LITE = lite("/calltools", "tools/call", ADD_PARAMS);
const MODERN = modern("tools/call", ADD_PARAMS);
const LEGACY = legacy("tools/call", ADD_PARAMS);
const old = build(before);
const ours = build(after);
const suffix = withMiddleware ? ", one middleware" : "";

await runScenario(`tools/call before → after${suffix}`, [
  { name: "floor", fetch: floor, request: LITE, expect: SUM },
  { name: "floor 2026", fetch: floor, request: MODERN, expect: SUM, floor: "floor 2026" },
  { name: "floor 2025", fetch: floor, request: LEGACY, expect: SUM, floor: "floor 2025" },
  { name: "before · MCP-lite", fetch: old, request: LITE, expect: SUM },
  { name: "after · MCP-lite", fetch: ours, request: LITE, expect: SUM },
  { name: "before · MCP 2026-07-28", fetch: old, request: MODERN, expect: SUM, floor: "floor 2026" },
  { name: "after · MCP 2026-07-28", fetch: ours, request: MODERN, expect: SUM, floor: "floor 2026" },
  { name: "before · MCP 2025", fetch: old, request: LEGACY, expect: SUM, floor: "floor 2025" },
  { name: "after · MCP 2025", fetch: ours, request: LEGACY, expect: SUM, floor: "floor 2025" },
], { cpuMs: 1500 });
