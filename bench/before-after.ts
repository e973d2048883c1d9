/**
 * Before and after, measured alongside: the same server (the `add` tool, every HTTP wire) built from
 * this checkout's `mod.ts` and from another checkout of the SDK (an earlier commit), timed in one
 * process with interleaved slices, each compared with the floor of its request. With `--middleware`,
 * both servers also carry one pass-through middleware (`server.use()`), the cost a typical
 * authentication check adds. With `--cpu`, each row is instead timed in CPU time (`process.cpuUsage()`)
 * over interleaved blocks of calls, the median block kept: on a loaded machine the time a process
 * waits for a core does not count, so before/after ratios stay readable where wall time is noise.
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
import { cpuTimePerCall, runScenario, runtime } from "./harness.ts";
import { ADD_PARAMS, legacy, lite, modern } from "./requests.ts";
import type { Fetch } from "./servers/common.ts";
import { floor } from "./servers/floor.ts";

const at = process.argv.indexOf("--before");
if (at < 0 || process.argv[at + 1] === undefined) {
  console.error("usage: bench/before-after.ts --before <checkout of the earlier commit> [--middleware]");
  process.exit(2);
}
const withMiddleware = process.argv.includes("--middleware");
const inCpuTime = process.argv.includes("--cpu");
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

const ROWS: [name: string, fetch: Fetch, request: typeof LITE][] = [
  ["floor", floor, LITE],
  ["floor 2026", floor, MODERN],
  ["floor 2025", floor, LEGACY],
  ["before · MCP-lite", old, LITE],
  ["after · MCP-lite", ours, LITE],
  ["before · MCP 2026-07-28", old, MODERN],
  ["after · MCP 2026-07-28", ours, MODERN],
  ["before · MCP 2025", old, LEGACY],
  ["after · MCP 2025", ours, LEGACY],
];

if (inCpuTime) await cpuTimeRows();
else {
  await runScenario(`tools/call before → after${suffix}`, [
    ...ROWS.map(([name, fetch, request]) => {
      const floorName = request === MODERN ? "floor 2026" : request === LEGACY ? "floor 2025" : undefined;
      return { name, fetch, request, expect: SUM, ...(floorName === undefined ? {} : { floor: floorName }) };
    }),
  ], { cpuMs: 1500 });
}

/** CPU µs per call of each row (`cpuTimePerCall`), each "after" row as a ratio to its "before" row. */
async function cpuTimeRows(): Promise<void> {
  const perCall = await cpuTimePerCall(ROWS, SUM);
  const { name: rt, version } = runtime();
  console.log(`\ntools/call before → after${suffix}, CPU µs per call (median of 40 blocks) — ${rt} ${version}`);
  const of = (name: string) => perCall.get(name)!;
  for (const [name] of ROWS) {
    const pair = name.startsWith("after")
      ? ` ${(of(name) / of(name.replace("after", "before"))).toFixed(3)}× before`
      : "";
    console.log(`  ${name.padEnd(26)} ${of(name).toFixed(2).padStart(7)} µs${pair}`);
  }
}
