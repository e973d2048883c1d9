/**
 * The memory the body budget bounds, on the budgets server in a child process (tests/server/budgets-server.ts,
 * `serve()` on the runtime that runs this): one caller sends 60 calls of 4 MiB at once, three times (its share
 * served, the rest refused 429 and discarded). Prints the resident set's growth over the three bursts (on Linux the
 * kernel's high-water mark, `VmHWM` in proc(5), which no sampling misses; elsewhere the server's own samples, every
 * 20 ms) and what of it stays 3 s later, garbage collected. A figure of the machine, not a test: the guard's Deno run
 * checks it (bench/guard.ts); docs/guides/limits.md quotes it.
 *
 *   deno run -A bench/body-memory.ts   ·   bun bench/body-memory.ts
 *
 * @module
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import process from "node:process";
import type { ChildServer } from "../tests/helpers/child-server.ts";
import { budgetsServer, callHold } from "../tests/helpers/budgets-calls.ts";

const MiB = 1024 * 1024;

/** One fresh server's three bursts: bytes grown at the peak, bytes kept once collected, calls served of 180. */
export interface BodyMemory {
  /** The peak's growth over the resident set before the bursts, in bytes. */
  grown: number;
  /** What stays of it within 3 s, garbage collected, in bytes. */
  kept: number;
  /** The calls served (the rest were refused 429). */
  served: number;
  /** The calls answered otherwise than 200 or 429. */
  wrong: number;
}

/** The resident set's high-water mark since the last reset, from the kernel, or `undefined` off Linux. */
function kernelPeak(pid: number, reset = false): number | undefined {
  if (!existsSync(`/proc/${pid}/clear_refs`)) return undefined;
  if (reset) writeFileSync(`/proc/${pid}/clear_refs`, "5"); // resets VmHWM to the current resident set
  return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;
}

/** The server's resident set: after a garbage collection (`?reset`, which also resets its samples), or its peak. */
async function rss(server: ChildServer, collect: boolean): Promise<number> {
  return Number(await (await fetch(`http://127.0.0.1:${server.port}/rss${collect ? "?reset" : ""}`)).text());
}

/** 60 calls of `size` bytes at once from one caller; their statuses. */
async function burst(server: ChildServer, size: number): Promise<number[]> {
  const answers = await Promise.all(Array.from({ length: 60 }, () => callHold(server.port, "one-caller", size, 300)));
  return answers.map((answer) => answer.status);
}

/**
 * Measures one fresh server through three bursts.
 *
 * @param keptGoal Bytes under which what stays counts as given back (it is sampled until then, 3 s at most).
 * @returns The growth, what stays, and how the calls were answered.
 */
export async function bodyMemory(keptGoal: number): Promise<BodyMemory> {
  const server = await budgetsServer({});
  try {
    await burst(server, 1_000); // the code paths compiled, the connections' first buffers taken
    const base = await rss(server, true);
    kernelPeak(server.pid, true);
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) statuses.push(...await burst(server, 4 * MiB - 200));
    const grown = (kernelPeak(server.pid) ?? await rss(server, false)) - base;
    const deadline = Date.now() + 3_000;
    let kept = await rss(server, true) - base;
    while (kept >= keptGoal && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      kept = await rss(server, true) - base;
    }
    const served = statuses.filter((status) => status === 200).length;
    const wrong = statuses.length - served - statuses.filter((status) => status === 429).length;
    return { grown, kept, served, wrong };
  } finally {
    await server.stop();
  }
}

if (import.meta.main) {
  const runtime = (globalThis as { Deno?: unknown }).Deno !== undefined ? "deno" : "bun";
  const { grown, kept, served, wrong } = await bodyMemory(75e6);
  console.log(
    `${runtime}: +${(grown / 1e6).toFixed(0)} MB at the peak for 3 × 60 bodies of 4 MiB from one caller ` +
      `(${served} served, ${180 - served - wrong} refused 429, ${wrong} otherwise), +${(kept / 1e6).toFixed(0)} MB ` +
      "kept once collected",
  );
  process.exit(0);
}
