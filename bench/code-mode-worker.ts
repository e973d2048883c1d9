/**
 * Code mode's programs on the server's thread against a thread of their own (issue 86, item 6), timed with mitata
 * (bench/harness.ts) in one run: per-program start (`execute()` of `return 1`: `quickjsExecutor()`'s fresh QuickJS
 * runtime, against `workerExecutor()`'s message to a warm thread and back), and per inner call (the slope of the
 * medians from 1 to 50 sequential calls, the executor alone and through `execute_code` on a served `codeMode()`).
 *
 * Run: `bun bench/code-mode-worker.ts` · `deno run -A bench/code-mode-worker.ts` · `node bench/code-mode-worker.ts`
 *
 * @module
 */
import * as v from "valibot";
import process from "node:process";
import { createServer, defineTool } from "../mod.ts";
import { type CodeExecutor, codeMode, quickjsExecutor, workerExecutor } from "../src/code-mode/mod.ts";
import { runScenario } from "./harness.ts";
import { jsonPost, rpc } from "./requests.ts";

const LIMITS = {
  timeMs: 30_000,
  cpuMs: 1_000,
  memoryBytes: 64 << 20,
  stackBytes: 128 << 10,
  outputBytes: 65_536,
  pendingCalls: 16,
};
const EXECUTORS = { "in-thread": quickjsExecutor(), worker: workerExecutor({ size: 1 }) };
type Where = keyof typeof EXECUTORS;

const add = defineTool("add").describe("Adds two numbers").input(v.object({ a: v.number(), b: v.number() }))
  .handle(({ a, b }) => ({ sum: a + b }));
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const serverOf = (executor: CodeExecutor) =>
  createServer({ name: "bench", version: "1.0.0", logger: quiet, codeMode: codeMode({ executor }) }).tool(add);
const SERVERS = { "in-thread": serverOf(EXECUTORS["in-thread"]), worker: serverOf(EXECUTORS.worker) };

/** The executor alone: a program making N `__call`s one after the other, each answered at once by the host. */
async function calls(where: Where, n: number): Promise<string> {
  const source = `let sum = 0;\nfor (let i = 0; i < ${n}; i++) sum += await __call("one", {});\nreturn sum;`;
  return JSON.stringify(await EXECUTORS[where].execute({ source, call: () => Promise.resolve(1), limits: LIMITS }));
}

/** One `execute_code` (MCP-lite `tools/call` through `server.fetch`) of a program making N calls of `add`. */
async function executeCode(where: Where, n: number): Promise<string> {
  const code =
    `let sum = 0;\nfor (let i = 0; i < ${n}; i++) sum += (await tools.add({ a: i, b: 1 })).sum;\nreturn sum;`;
  const request = jsonPost("/mcp-lite/v1/calltools", rpc("tools/call", { name: "execute_code", arguments: { code } }));
  return await (await SERVERS[where].fetch(request())).text();
}

const START = "in-thread: execute `return 1`";
const result = await runScenario("code mode: in-thread against worker", [
  { name: START, fn: () => calls("in-thread", 0), expect: '"value":0' },
  { name: "worker: execute `return 1`", fn: () => calls("worker", 0), expect: '"value":0', floor: START },
  ...[1, 50].flatMap((n) => [
    { name: `in-thread: ${n} × __call`, fn: () => calls("in-thread", n), expect: `"value":${n}`, floor: START },
    {
      name: `worker: ${n} × __call`,
      fn: () => calls("worker", n),
      expect: `"value":${n}`,
      floor: `in-thread: ${n} × __call`,
    },
  ]),
  ...[1, 50].flatMap((n) => [
    {
      name: `in-thread: execute_code, ${n} × add`,
      fn: () => executeCode("in-thread", n),
      expect: `"result":${n * (n - 1) / 2 + n}`,
      floor: START,
    },
    {
      name: `worker: execute_code, ${n} × add`,
      fn: () => executeCode("worker", n),
      expect: `"result":${n * (n - 1) / 2 + n}`,
      floor: `in-thread: execute_code, ${n} × add`,
    },
  ]),
]);

// Slopes from the medians (p50), which the shared machine's bursts move least.
const p50 = (name: string) => result.cases[name].p50 / 1e3;
const slope = (row: (n: number) => string) => (p50(row(50)) - p50(row(1))) / 49;
const line = (label: string, inThread: number, worker: number) =>
  `  ${label.padEnd(38)} in-thread ${inThread.toFixed(1).padStart(7)} µs, worker ${worker.toFixed(1).padStart(7)} µs (${
    (worker / inThread).toFixed(2)
  }×)`;
console.log("\nper unit (p50):");
console.log(line("program start (execute `return 1`)", p50(START), p50("worker: execute `return 1`")));
console.log(line(
  "one inner call, executor alone",
  slope((n) => `in-thread: ${n} × __call`),
  slope((n) => `worker: ${n} × __call`),
));
console.log(line(
  "one inner call, execute_code",
  slope((n) => `in-thread: execute_code, ${n} × add`),
  slope((n) => `worker: execute_code, ${n} × add`),
));
process.exit(0); // Deno keeps an idle Worker alive
