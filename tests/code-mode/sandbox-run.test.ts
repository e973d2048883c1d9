/**
 * `runInSandbox()` (src/code-mode/quickjs/sandbox-run.ts) frees everything it makes, on every path. QuickJS's
 * release build asserts, when a runtime is freed, that no object of it is left: a handle leaked by any path
 * (a result, a failure, a limit, a host call settled after the end) would abort there, which the run reports
 * as a broken instance. Each outcome's path runs here and must leave the instance whole, and two hundred
 * programs in a row must not grow its memory.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import releaseSync from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, type QuickJSSyncVariant } from "quickjs-emscripten-core";
import { runInSandbox } from "../../src/code-mode/quickjs/sandbox-run.ts";
import type { CodeExecutor } from "../../src/code-mode/executor.ts";
import { waitFor } from "../helpers/long-running.ts";

type Program = Parameters<CodeExecutor["execute"]>[0];

// Deno's type check reads the variant's CommonJS declarations as a module whose default is the variant.
const imported = releaseSync as QuickJSSyncVariant | { default: QuickJSSyncVariant };
const module = await newQuickJSWASMModuleFromVariant("default" in imported ? imported.default : imported);

const LIMITS: Program["limits"] = {
  timeMs: 10_000,
  cpuMs: 10_000,
  memoryBytes: 4 << 20,
  stackBytes: 128 << 10,
  outputBytes: 4 << 10,
  pendingCalls: 4,
};

/**
 * The host: `echo` answers its arguments, `fail` rejects, `held` answers only when the test releases it (each held
 * call's release, and its answer as handed to the sandbox).
 */
const held: { release(): void; answer: Promise<unknown> }[] = [];
function call(name: string, args: unknown): Promise<unknown> {
  if (name === "fail") return Promise.reject(new Error("refused"));
  if (name === "held") {
    let release!: () => void;
    const answer = new Promise((resolve) => release = () => resolve(args));
    held.push({ release, answer });
    return answer;
  }
  return Promise.resolve(args);
}

/** Each outcome's path: the source, its limits over LIMITS, and the reason (or "ok") it ends with. */
const PATHS: [string, Partial<Program["limits"]>, string][] = [
  [`console.log("a", { b: 1 }); return [await __call("echo", 1), 2];`, {}, "ok"],
  [`try { await __call("fail", {}); } catch (e) { return e.message; }`, {}, "ok"],
  [`return Promise.all([1, 2, 3].map((n) => __call("echo", n)));`, {}, "ok"],
  [`const a = ;`, {}, "syntax"],
  [`throw new RangeError("mine");`, {}, "thrown"],
  [`await __call("fail", {});`, {}, "thrown"],
  [`return () => 1;`, {}, "thrown"],
  [`const o = {}; o.o = o; return o;`, {}, "thrown"],
  [`while (true) {}`, { timeMs: 100 }, "time"],
  // Its time spent before it starts (waiting for a thread): stopped as the sandbox is set up, for its time.
  [`for (;;) {}`, { timeMs: 0 }, "time"],
  [`for (;;) await null;`, { timeMs: 100 }, "time"],
  [`await __call("held", 1);`, { timeMs: 100 }, "time"],
  // CPU time is the program's computing only: a loop stops at cpuMs, a wait for a call never counts.
  [`while (true) {}`, { cpuMs: 100 }, "cpu"],
  [`await __call("held", 1);`, { timeMs: 400, cpuMs: 200 }, "time"],
  [`await new Promise(() => {});`, {}, "time"],
  [`const kept = []; for (;;) kept.push({ n: kept.length });`, {}, "memory"],
  [`let s = "x"; for (;;) { s += s; s.charCodeAt(0); }`, {}, "memory"],
  [`(function down() { down(); })();`, {}, "stack"],
  [`for (;;) console.log("spam");`, {}, "output"],
  [`return "x".repeat(5000);`, {}, "output"],
  [`const all = []; for (let i = 0; i < 100; i++) all.push(__call("held", i)); await Promise.all(all);`, {}, "calls"],
];

async function runPath(source: string, limits: Partial<Program["limits"]>) {
  return await runInSandbox(module, { source, call, limits: { ...LIMITS, ...limits } });
}

describe("runInSandbox frees what it makes", () => {
  it("ends every outcome's path with the instance whole (no handle left to abort the runtime's free)", async () => {
    for (const [source, limits, expected] of PATHS) {
      const run = await runPath(source, limits);
      assert.equal(run.outcome.ok ? "ok" : run.outcome.reason, expected, `${source}: ${JSON.stringify(run.outcome)}`);
      assert.equal(run.broken, false, `${source} left the instance broken`);
    }
    // The held calls settle now, after their programs' end: no-ops on disposed sandboxes (their handlers, attached
    // before the test's, have run once the answers are awaited here).
    const settled = held.splice(0);
    for (const { release } of settled) release();
    await Promise.all(settled.map(({ answer }) => answer));
    const after = await runPath(`return 1;`, {});
    assert.deepEqual(after, { outcome: { ok: true, value: 1, logs: [] }, broken: false });
  });

  it("ends a program aborted while it awaits the host, freeing its pending call", async () => {
    const controller = new AbortController();
    const calls = held.length;
    const running = runInSandbox(module, {
      source: `await __call("held", 1);`,
      call,
      limits: LIMITS,
      signal: controller.signal,
    });
    await waitFor(() => held.length > calls); // it awaits the host
    controller.abort();
    const run = await running;
    assert.equal(!run.outcome.ok && run.outcome.reason, "aborted");
    assert.equal(run.broken, false);
    for (const { release } of held.splice(0)) release();
  });

  it("runs two hundred programs in a row without growing the instance's memory", async () => {
    const source = `const r = await __call("echo", { list: [1, 2, 3] }); console.log(r); return r.list.length;`;
    for (let i = 0; i < 20; i++) await runPath(source, {});
    const before = module.getWasmMemory().buffer.byteLength;
    for (let i = 0; i < 200; i++) {
      const run = await runPath(source, {});
      assert.equal(run.broken, false);
      assert.deepEqual(run.outcome, { ok: true, value: 3, logs: ['{"list":[1,2,3]}'] });
    }
    assert.equal(module.getWasmMemory().buffer.byteLength, before);
  });
});
