/**
 * Code mode's costs (issue 78), in process, timed with mitata (bench/harness.ts):
 *
 * - **sandbox start**: `quickjsExecutor().execute()` of `return 1`, a fresh QuickJS runtime and context each time (the
 *   WebAssembly module loaded once, as a server keeps it), and the same with a new executor each time (the module
 *   compiled too: a server's first program);
 * - **per inner call**: one `execute_code` (MCP-lite `tools/call` through `server.fetch`) of a program making N
 *   sequential calls of `add`, against N direct `tools/call`s of `add` through the same `fetch` (each row's floor);
 *   and the executor alone, a program making N `__call`s that the host answers at once (its share of the cost).
 *   The cost of one call is the slope of the medians, (50 calls − 1 call) ÷ 49, printed after the table beside a
 *   direct call's.
 *
 * With `--cpu`, the same work is timed in CPU time instead (`process.cpuUsage()`, bench/harness.ts's `cpuTimePerCall`),
 * which a loaded machine disturbs less than wall time.
 *
 * Run: `bun bench/code-mode.ts [--cpu]` · `deno run -A bench/code-mode.ts [--cpu]` · `node bench/code-mode.ts [--cpu]`
 * (Node 22.18 or later).
 *
 * @module
 */
import * as v from "valibot";
import { createServer, defineTool } from "../mod.ts";
import { codeMode, quickjsExecutor } from "../src/code-mode/mod.ts";
import { cpuTimePerCall, runScenario, runtime } from "./harness.ts";
import process from "node:process";
import { ADD_PARAMS, jsonPost, lite, rpc } from "./requests.ts";

const add = defineTool("add")
  .describe("Adds two numbers")
  .input(v.object({ a: v.number(), b: v.number() }))
  .handle(({ a, b }) => ({ sum: a + b }));
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
// In-thread, as this file's rows in bench/RESULTS.md were measured (bench/code-mode-worker.ts compares the worker).
const server = createServer({
  name: "bench",
  version: "1.0.0",
  logger: quiet,
  codeMode: codeMode({ executor: quickjsExecutor() }),
}).tool(add);

const LIMITS = {
  timeMs: 30_000,
  cpuMs: 1_000,
  memoryBytes: 64 << 20,
  stackBytes: 128 << 10,
  outputBytes: 65_536,
  pendingCalls: 16,
};
const noCall = () => Promise.reject(new Error("no tools here"));
const executor = quickjsExecutor();

/** One `execute` of `return 1`; its value as text. */
async function start(on = executor): Promise<string> {
  const outcome = await on.execute({ source: "return 1", call: noCall, limits: LIMITS });
  return JSON.stringify(outcome);
}

/** The executor alone: a program making N `__call`s, one after the other, each answered at once by the host. */
async function hostCalls(n: number): Promise<string> {
  const source = `let sum = 0;
for (let i = 0; i < ${n}; i++) sum += await __call("one", {});
return sum;`;
  return JSON.stringify(await executor.execute({ source, call: () => Promise.resolve(1), limits: LIMITS }));
}

const ADD = lite("/calltools", "tools/call", ADD_PARAMS);
/** N direct `tools/call`s of `add`, one after the other; the last answer. */
async function direct(n: number): Promise<string> {
  let text = "";
  for (let i = 0; i < n; i++) text = await (await server.fetch(ADD())).text();
  return text;
}

/** One `execute_code` of a program making N calls of `add`, one after the other. */
function program(n: number) {
  const code = `let sum = 0;
for (let i = 0; i < ${n}; i++) sum += (await tools.add({ a: i, b: 1 })).sum;
return sum;`;
  return jsonPost("/mcp-lite/v1/calltools", rpc("tools/call", { name: "execute_code", arguments: { code } }));
}
const SUMS = new Map([1, 10, 50].map((n) => [n, n * (n - 1) / 2 + n]));

if (process.argv.includes("--cpu")) {
  // CPU time (process.cpuUsage()), 40 rounds of blocks of 10, rows interleaved, the median block kept: on a loaded
  // machine the time this process waits for a core does not count.
  const execute = (n: number) => async () => await (await server.fetch(program(n)())).text();
  const rows = [
    ["sandbox start", () => start(), '"value":1'],
    ["executor alone, 1 × __call", () => hostCalls(1), '"value":1'],
    ["executor alone, 50 × __call", () => hostCalls(50), '"value":50'],
    ["direct, 50 × tools/call add", () => direct(50), '"sum":3'],
    ["execute_code, 1 × add", execute(1), `"result":${SUMS.get(1)}`],
    ["execute_code, 50 × add", execute(50), `"result":${SUMS.get(50)}`],
  ] as const;
  const cpu = await cpuTimePerCall(rows, "", 10);
  const { name, version } = runtime();
  console.log(`\ncode mode, CPU µs per unit (median of 40 blocks of 10) — ${name} ${version}`);
  for (const [row] of rows) console.log(`  ${row.padEnd(30)} ${cpu.get(row)!.toFixed(1).padStart(9)} µs`);
  const inner = (cpu.get("execute_code, 50 × add")! - cpu.get("execute_code, 1 × add")!) / 49;
  const alone = (cpu.get("executor alone, 50 × __call")! - cpu.get("executor alone, 1 × __call")!) / 49;
  const once = cpu.get("direct, 50 × tools/call add")! / 50;
  console.log(
    `per call (slope 1 → 50): inner call ${inner.toFixed(1)} µs, of which the executor's round trip ` +
      `${alone.toFixed(1)} µs; a direct tools/call ${once.toFixed(1)} µs (inner ÷ direct ${
        (inner / once).toFixed(1)
      }×)`,
  );
  process.exit(0);
}

const result = await runScenario("code mode", [
  { name: "sandbox start: execute `return 1` (module loaded)", fn: () => start(), expect: '"value":1' },
  {
    name: "sandbox start: new executor, execute `return 1` (module compiled)",
    fn: () => start(quickjsExecutor()),
    expect: '"value":1',
    floor: "sandbox start: execute `return 1` (module loaded)",
  },
  ...[1, 50].map((n) => ({
    name: `executor alone: ${n} × __call, answered at once`,
    fn: () => hostCalls(n),
    expect: `"value":${n}`,
    floor: "sandbox start: execute `return 1` (module loaded)",
  })),
  ...[1, 10, 50].flatMap((n) => [
    {
      name: `direct: ${n} × tools/call add`,
      fn: () => direct(n),
      expect: '"sum":3',
      floor: `direct: ${n} × tools/call add`,
    },
    {
      name: `code mode: 1 execute_code, ${n} × add`,
      fn: async () => await (await server.fetch(program(n)())).text(),
      expect: `"result":${SUMS.get(n)}`,
      floor: `direct: ${n} × tools/call add`,
    },
  ]),
]);

// Slopes from the medians (p50), which the shared machine's bursts move least.
const p50 = (name: string) => result.cases[name].p50 / 1e3;
const slope = (first: string, last: string) => (p50(last) - p50(first)) / 49;
const inner = slope("code mode: 1 execute_code, 1 × add", "code mode: 1 execute_code, 50 × add");
const alone = slope("executor alone: 1 × __call, answered at once", "executor alone: 50 × __call, answered at once");
const once = p50("direct: 1 × tools/call add");
console.log(
  `\nper call (p50 slope 1 → 50): inner call ${inner.toFixed(1)} µs, of which the executor's round trip ` +
    `${alone.toFixed(1)} µs; a direct tools/call ${once.toFixed(1)} µs (inner ÷ direct ${
      (inner / once).toFixed(1)
    }×); ` +
    `an execute_code's fixed cost (1 call − 1 direct − 1 inner): ` +
    `${(p50("code mode: 1 execute_code, 1 × add") - once - inner).toFixed(0)} µs`,
);
