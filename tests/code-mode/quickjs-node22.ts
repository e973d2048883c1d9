/**
 * Run by Node 22 itself (tests/code-mode/quickjs-runtimes.test.ts), its types stripped by Node: three
 * programs on one `quickjsExecutor()` (a `__call` round trip, an endless loop, a memory bomb), their outcomes
 * printed as one line of JSON.
 */
import process from "node:process";
import { quickjsExecutor } from "../../src/code-mode/mod.ts";

const executor = quickjsExecutor();
const limits = { timeMs: 200, memoryBytes: 4 << 20, stackBytes: 128 << 10, outputBytes: 8 << 10, pendingCalls: 4 };
const call = (name: string, args: unknown) => Promise.resolve({ name, args, node: process.versions.node });
const outcomes = [];
for (
  const [source, timeMs] of [
    [`const r = await __call("echo", { n: 1 }); console.log("on", r.node); return r;`, 10_000],
    [`while (true) {}`, 200],
    [`const kept = []; for (;;) kept.push({ n: kept.length });`, 10_000],
  ] as const
) {
  outcomes.push(await executor.execute({ source, call, limits: { ...limits, timeMs } }));
}
console.log(JSON.stringify({ node: process.versions.node, outcomes }));
