/**
 * How late a finished child reaches its waiting parent on a queue (issue 100, item 4): a parent `invoke()`s a child
 * and goes back to the queue while it runs; the time from the child's last line to the parent's next one, per
 * parent, `--parents` of them one after another, on BullMQ over redis-server and over PostgreSQL. Two ways, in one
 * run: the child's end waking its parent (`WorkQueue.wake`, what `bullmqQueue()` has), and, for the row before, the
 * same queue with `wake` left out (the parent reads its child's entry on its own timer, a quarter of a second growing
 * to five); then the server given no queue, which keeps one in its store (the default) and takes its own jobs. Prints
 * p50, p95 and the largest.
 *
 *   bun bench/child-wake.ts [--parents 20] [--backends redis,postgres]
 *
 * @module
 */
import process from "node:process";
import * as v from "valibot";
import { createServer, defineTool, invoke, runWorker } from "../mod.ts";
import type { WorkQueue } from "../src/types.ts";
import { REDIS_MISSING, startRedis } from "../tests/helpers/redis-server.ts";
import { POSTGRES_MISSING, startPostgres } from "../tests/helpers/postgres-server.ts";
import { queueAndStore } from "../tests/helpers/queue-store.ts";
import { redeemedWithin } from "../tests/helpers/outcome.ts";
import { tokenOf } from "../tests/helpers/instances.ts";
import { flag } from "./exec.ts";

const PARENTS = Number(flag("parents", "20"));
const BACKENDS = flag("backends", "redis,postgres").split(",");

/** The child's last line, and its parent's next, by the parent's call `n` (ms, `performance.now()`). */
const childEnded = new Map<number, number>();
const parentWoke = new Map<number, number>();

const child = defineTool("child").describe("Answers after a short wait").input(v.object({ n: v.number() }))
  .longRunning().defer(async ({ n }) => {
    await new Promise((resolve) => setTimeout(resolve, 50)); // the parent has gone back to the queue by then
    childEnded.set(n, performance.now());
    return { n };
  });
const parent = defineTool("parent").describe("Invokes the child").input(v.object({ n: v.number() }))
  .longRunning().defer(async ({ n }, work) => {
    const got = await invoke(work, "child", child, { n });
    parentWoke.set(n, performance.now());
    return got;
  });

/** The p-th percentile of sorted values. */
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** How a parent learns of its child's end: its own timer, BullMQ's wake, or the queue kept in the store's wake. */
type How = "timer" | "woken" | "store";

async function series(url: string, how: How): Promise<number[]> {
  const opened = queueAndStore({ url, queue: `wake-bench-${crypto.randomUUID()}`, lockMs: 5_000 });
  const { wake: _, ...withoutWake } = opened.queue;
  const queue: WorkQueue = how === "woken" ? opened.queue : withoutWake;
  const server = createServer({
    name: `wake-bench-${crypto.randomUUID()}`,
    version: "1.0.0",
    secret: "the child-wake bench's secret: 32 bytes or more",
    resultStore: opened.resultStore,
    // No queue given: the server keeps one in its store and takes its jobs itself, from its first call.
    ...how === "store" ? {} : { queue },
  }).tool(child).tool(parent);
  const worker = how === "store" ? undefined : runWorker(server, { concurrency: 2 });
  const late: number[] = [];
  try {
    for (let n = 0; n < PARENTS; n++) {
      const token = tokenOf(await server.call("parent", { n }));
      await redeemedWithin(server, token, 60_000);
      late.push(parentWoke.get(n)! - childEnded.get(n)!);
    }
  } finally {
    await worker?.close();
    await server.drain(); // the taker of the queue kept in the store stops
    await opened.close();
  }
  return late.sort((a, b) => a - b);
}

const backends: [string, () => Promise<{ url: string; stop(): Promise<void> }>][] = [];
if (BACKENDS.includes("redis") && !REDIS_MISSING) {
  backends.push(["redis-server", async () => {
    const redis = await startRedis();
    return { url: redis.url, stop: () => redis.stop() };
  }]);
}
if (BACKENDS.includes("postgres") && !POSTGRES_MISSING) {
  backends.push(["PostgreSQL", async () => {
    const postgres = await startPostgres();
    return { url: postgres.url, stop: () => postgres.remove() };
  }]);
}
console.log(`child's end to its parent's next line, ${PARENTS} parents one after another (ms)`);
console.log("| backend | how | p50 | p95 | largest |");
console.log("| --- | --- | --- | --- | --- |");
for (const [name, start] of backends) {
  const server = await start();
  try {
    const labels: Record<How, string> = {
      timer: "BullMQ, its own timer (no wake)",
      woken: "BullMQ, woken by the child's end",
      store: "the queue kept in the store, woken",
    };
    for (const how of ["timer", "woken", "store"] as const) {
      const late = await series(server.url, how);
      const row = [percentile(late, 0.5), percentile(late, 0.95), late.at(-1)!].map((ms) => ms.toFixed(1));
      console.log(`| ${name} | ${labels[how]} | ${row.join(" | ")} |`);
    }
  } finally {
    await server.stop();
  }
}
process.exit(0);
