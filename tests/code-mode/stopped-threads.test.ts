/**
 * A program the host stopped stops using CPU (issue 86, item 1): Deno's and Bun's `terminate()` leave a thread that
 * computes in WebAssembly running (for tens of seconds, or until its program's own limits), so the thread reads the
 * host's stop itself. After each stopped program's answer, the process's CPU over a window is far below what one
 * spinning thread uses, and a process whose warm thread is idle exits by itself (Deno's web `Worker` held it, with
 * no `unref()`). CPU time, not a speed. Bun, Deno and Node 22.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ROOT, run } from "../helpers/process.ts";
import { QUIET_MS, type StoppedReport, stoppedThreads, WINDOW_MS } from "./stopped-threads.ts";

function assertQuiet(report: StoppedReport): void {
  const detail = JSON.stringify(report);
  assert.deepEqual(report.map((r) => r.reason), ["cpu", "cpu", "aborted"], detail);
  for (const { name, cpuMs } of report) {
    const quietest = Math.min(...cpuMs);
    assert.ok(
      quietest < QUIET_MS,
      `${name}: ${quietest} ms of CPU in each ${WINDOW_MS} ms after its answer: ${detail}`,
    );
  }
}

/** Runs the cases in a process of its own, `program` and `args` before the script; its report. */
async function reportIn(program: string, args: string[]): Promise<StoppedReport> {
  const done = await run(program, [...args, `${ROOT}tests/code-mode/stopped-threads-main.ts`], 120_000);
  assert.equal(done.code, 0, done.stderr);
  return JSON.parse(done.stdout.trim().split("\n").at(-1)!);
}

const IS_DENO = "Deno" in globalThis;

describe("a stopped program's thread after its answer", () => {
  it("uses no CPU (Bun, in this process)", {
    skip: IS_DENO ? "under deno test, Deno runs it in its own process: see the next test" : false,
    timeout: 120_000,
  }, async () => {
    assertQuiet(await stoppedThreads());
  });

  // `deno test` type-checks each thread's module as the thread starts, in the test's process: CPU that is not a
  // program's. Deno runs the cases as a server runs, in a process of its own.
  it("uses no CPU on Deno, in a process of its own (deno run), which exits with its warm thread idle", {
    skip: IS_DENO ? false : "deno test runs it",
    timeout: 120_000,
  }, async () => {
    assertQuiet(await reportIn(`${ROOT}node_modules/.bin/deno`, ["run", "-A", "--unstable-no-legacy-abort"]));
  });

  it("uses no CPU on Node 22, in a process that exits with its warm thread idle", {
    skip: IS_DENO ? "bun test runs it" : false,
    timeout: 120_000,
  }, async (t) => {
    const node = await node22();
    if (node === undefined) return t.skip(NODE22_MISSING);
    assertQuiet(await reportIn(node, []));
  });
});
