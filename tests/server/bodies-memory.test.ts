/**
 * The memory the body budget bounds, on a server in a child process (tests/server/budgets-server.ts, `serve()` on
 * the runtime under test): one caller sends 60 calls of 4 MiB at once, three times (its share, two bodies, served;
 * the rest refused 429 and discarded), and a fresh server's resident set grows by less than 125 MB (the better of
 * two servers), and comes back within 75 MB once garbage is collected. On Linux the peak is the kernel's high-water
 * mark (`VmHWM`, proc(5)), which no sampling misses; elsewhere the server's own samples, every 20 ms.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { describe, it } from "node:test";
import type { ChildServer } from "../helpers/child-server.ts";
import { budgetsServer, callHold } from "../helpers/budgets-calls.ts";

const MiB = 1024 * 1024;
const MB = 1e6;
/** The growth the default budgets keep 60 concurrent 4 MiB calls under, three times over (Deno: 120-209 MB before). */
const GROWTH_BOUND = 125 * MB;
/** What may stay of it once garbage is collected. */
const RETURNED_BOUND = 75 * MB;

/** The resident set's high-water mark since the last reset, from the kernel, or `undefined` off Linux. */
function kernelPeak(pid: number, reset = false): number | undefined {
  if (!existsSync(`/proc/${pid}/clear_refs`)) return undefined;
  if (reset) writeFileSync(`/proc/${pid}/clear_refs`, "5"); // resets VmHWM to the current resident set
  return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;
}

/** The server's resident set now, after a garbage collection (`GET /rss?reset`, which also resets its samples). */
async function collected(port: number): Promise<number> {
  return Number(await (await fetch(`http://127.0.0.1:${port}/rss?reset`)).text());
}

/** The highest resident set the server sampled since the last reset. */
async function sampledPeak(port: number): Promise<number> {
  return Number(await (await fetch(`http://127.0.0.1:${port}/rss`)).text());
}

/** 60 calls of `size` bytes at once from one caller; their statuses. */
async function burst(port: number, size: number): Promise<number[]> {
  const answers = await Promise.all(Array.from({ length: 60 }, () => callHold(port, "one-caller", size, 300)));
  return answers.map((answer) => answer.status);
}

/**
 * The growth of three bursts of 60 concurrent 4 MiB calls from one caller, above the resident set `base` measured
 * after a collection: the most the bursts held at once.
 */
async function bursts(server: ChildServer): Promise<{ grown: number; base: number; served: number }> {
  const { port, pid } = server;
  const base = await collected(port);
  kernelPeak(pid, true);
  const statuses: number[] = [];
  for (let round = 0; round < 3; round++) statuses.push(...await burst(port, 4 * MiB - 200));
  const peak = kernelPeak(pid) ?? await sampledPeak(port);
  const served = statuses.filter((status) => status === 200).length;
  assert.ok(served >= 3, `served ${served} of 180`);
  assert.equal(statuses.filter((status) => status === 429).length, 180 - served, `answered ${statuses}`);
  return { grown: peak - base, base, served };
}

/**
 * On a fresh server, a set of three bursts; its growth, and what stays of it once given back (within 3 s, garbage
 * collected).
 */
async function freshBursts(): Promise<{ grown: number; kept: number; served: number }> {
  const server = await budgetsServer({});
  try {
    await burst(server.port, 1_000); // the code paths compiled, the connections' first buffers taken
    const set = await bursts(server);
    const deadline = Date.now() + 3_000;
    let kept = await collected(server.port) - set.base;
    while (kept >= RETURNED_BOUND && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      kept = await collected(server.port) - set.base;
    }
    return { ...set, kept };
  } finally {
    await server.stop();
  }
}

const inMB = (values: number[]) => values.map((bytes) => (bytes / MB).toFixed(0)).join(" and ");

describe("the body budget's memory, on a server in a child process", () => {
  it("60 concurrent 4 MiB calls from one caller, three times: grows under 125 MB and gives it back", {
    timeout: 180_000,
  }, async () => {
    // The better of two fresh servers: one set in ten peaks 40-70 MB higher in the runtime's own allocator.
    const sets = [await freshBursts(), await freshBursts()];
    const grown = sets.map((set) => set.grown);
    const kept = sets.map((set) => set.kept);
    assert.ok(Math.min(...grown) < GROWTH_BOUND, `the server grew by ${inMB(grown)} MB (${sets[0].served} served)`);
    assert.ok(Math.min(...kept) < RETURNED_BOUND, `3 s after (peaks +${inMB(grown)} MB), still +${inMB(kept)} MB`);
  });
});
