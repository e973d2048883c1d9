/**
 * What a stopped program's thread costs after its answer: hostile programs run through `workerExecutor()`, each
 * stopped (by its thread's meter, by the host's terminate, by the request's abort), a plain program after it (its
 * replacement thread started), then the process's CPU over a window (up to three, until one is quiet). Run by
 * tests/code-mode/stopped-threads.test.ts, in its process on Bun, through stopped-threads-main.ts on Deno and Node 22.
 */
import process from "node:process";
import { type CodeExecutor, workerExecutor } from "../../src/code-mode/mod.ts";

type Limits = Parameters<CodeExecutor["execute"]>[0]["limits"];

/** Each case: its name, the reason it stops with, and its CPU over each window read after its answer. */
export type StoppedReport = { readonly name: string; readonly reason: string; readonly cpuMs: readonly number[] }[];

/** How long the process's CPU is read after each answer, in ms. */
export const WINDOW_MS = 2_000;
/** The most CPU a quiet window takes, in ms: a thread still spinning takes about the window (one core). */
export const QUIET_MS = WINDOW_MS / 4;
/**
 * Windows read after each answer until one is quiet. A thread still spinning keeps every window busy; a one-off
 * cost (the stopped thread's teardown, V8 compiling the new thread's WebAssembly in the background), which a busy
 * machine delays, lands in one.
 */
const WINDOWS = 3;

const LIMITS: Limits = {
  timeMs: 60_000,
  cpuMs: 300,
  memoryBytes: 32 << 20,
  stackBytes: 128 << 10,
  outputBytes: 8 << 10,
  pendingCalls: 8,
};

/** The process's CPU time (every thread), in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Runs the cases on one executor (one thread at a time); their report. */
export async function stoppedThreads(): Promise<StoppedReport> {
  const executor = workerExecutor({ size: 1 });
  const report: StoppedReport[number][] = [];
  const cases: { name: string; source: string; limits?: Partial<Limits>; abort?: boolean }[] = [
    { name: "spread loop", source: "const l = Array.from({ length: 200000 }, (_, i) => i); for (;;) [...l];" },
    // Its getters run, metered, as the thrown value is read: stopped by its CPU limit on the thread.
    { name: "thrown value whose getter loops", source: "throw { get message() { for (;;) {} } };" },
    // No limit of its own near: only the request's abort stops it.
    { name: "loop aborted", source: `await __call("started"); for (;;) {}`, limits: { cpuMs: 60_000 }, abort: true },
  ];
  for (const { name, source, limits, abort } of cases) {
    const controller = new AbortController();
    const outcome = await executor.execute({
      source,
      limits: { ...LIMITS, ...limits },
      signal: controller.signal,
      call: () => {
        // About time: the abort lands while the thread computes, which nothing outside it sees (a call made there
        // would be in flight, another path): 100 ms after the call's answer.
        if (abort) setTimeout(() => controller.abort(), 100);
        return Promise.resolve(null);
      },
    });
    // A plain program answers on the thread that replaced the stopped one: its start is not in the window. Its
    // CPU limit is far: on a loaded machine, a thread of lowered priority may be silent past 300 ms.
    const plain = await executor.execute({
      source: "return 1;",
      limits: { ...LIMITS, cpuMs: 10_000 },
      call: () => Promise.resolve(null),
    });
    if (!plain.ok) throw new Error(`a plain program failed after ${name}: ${JSON.stringify(plain)}`);
    const windows: number[] = [];
    while (windows.length < WINDOWS && !windows.some((ms) => ms < QUIET_MS)) {
      const before = cpuMs();
      // About time: the process's CPU over a window, quiet once the stopped thread is gone.
      await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
      windows.push(Math.round(cpuMs() - before));
    }
    report.push({ name, reason: outcome.ok ? "answered" : outcome.reason, cpuMs: windows });
  }
  return report;
}
