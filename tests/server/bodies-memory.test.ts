/**
 * The memory the body budget bounds, on a server in a child process (tests/server/budgets-server.ts, `serve()` on
 * the runtime under test): one caller sends 60 calls of 4 MiB at once, three times (its share, two bodies, served;
 * the rest refused 429 and discarded), and the server's resident set grows by less than 150 MB, then comes back
 * once garbage is collected. On Linux the peak is the kernel's high-water mark (`VmHWM`, proc(5)), which no
 * sampling misses; elsewhere the server's own samples, every 20 ms.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { describe, it } from "node:test";
import type { ChildServer } from "../helpers/child-server.ts";
import { budgetsServer, callHold } from "../helpers/budgets-calls.ts";

const MiB = 1024 * 1024;
const MB = 1e6;
/** The growth the default budgets keep 60 concurrent 4 MiB calls under, three times over. */
const GROWTH_BOUND = 150 * MB;

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

async function assertBodiesMemory(server: ChildServer): Promise<void> {
  const { port, pid } = server;
  await burst(port, 1_000); // the code paths compiled, the connections' first buffers taken
  const base = await collected(port);
  kernelPeak(pid, true);
  const statuses: number[] = [];
  for (let round = 0; round < 3; round++) statuses.push(...await burst(port, 4 * MiB - 200));
  const peak = kernelPeak(pid) ?? await sampledPeak(port);
  const served = statuses.filter((status) => status === 200).length;
  assert.ok(served >= 3, `served ${served} of 180`);
  assert.equal(statuses.filter((status) => status === 429).length, 180 - served, `answered ${statuses}`);
  const grown = peak - base;
  assert.ok(grown < GROWTH_BOUND, `the server grew by ${(grown / MB).toFixed(0)} MB (${served} served)`);
  // Given back: within 3 s, and garbage collected, the resident set is back under half the bound above the base.
  const deadline = Date.now() + 3_000;
  let now = await collected(port);
  while (now - base >= GROWTH_BOUND / 2 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    now = await collected(port);
  }
  assert.ok(
    now - base < GROWTH_BOUND / 2,
    `3 s after (peak +${(grown / MB).toFixed(0)} MB), still +${((now - base) / MB).toFixed(0)} MB`,
  );
}

describe("the body budget's memory, on a server in a child process", () => {
  it("60 concurrent 4 MiB calls from one caller, three times: grows under 150 MB and gives it back", {
    timeout: 180_000,
  }, async () => {
    const server = await budgetsServer({});
    try {
      await assertBodiesMemory(server);
    } finally {
      await server.stop();
    }
  });
});
