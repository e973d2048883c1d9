/**
 * Queued long-running work: web instances answer calls, workers run the work. The same module is both:
 * served (`PORT=8001 deno run -A --unstable-no-legacy-abort examples/queue/server.ts`) it is a web
 * instance, which answers a `build_report` call with a promise at once and adds the job to a BullMQ
 * queue on Redis; loaded by `mcplite worker examples/queue/server.ts` it is a worker, which takes jobs
 * from that queue and writes each result to the Redis result store, where a redeem on any instance
 * finds it. examples/queue/README.md runs two of each.
 *
 * Every web instance and worker needs the same MCPLITE_SECRET (jobs and tokens are signed and sealed
 * with it) and the same REDIS_URL (default redis://127.0.0.1:6379). Reads PORT (default 8000),
 * HOSTNAME (default 127.0.0.1), and LOCK_MS (BullMQ's lock on a running job, default 5 000 here: a
 * worker that dies hands its jobs on within one to two of it).
 */
import { hostname } from "node:os";
import process from "node:process";
import { Redis } from "ioredis";
import * as v from "valibot";
import { createServer, defineTool, env, serve } from "../../mod.ts";
import { bullmqQueue } from "../../src/bullmq/mod.ts";
import { redisResultStore } from "../../src/redis/mod.ts";

if ((env("MCPLITE_SECRET") ?? "").length < 32) {
  throw new Error(
    "set MCPLITE_SECRET (32 bytes or more), the same on every web instance and worker: " +
      "jobs and promise tokens are signed with it",
  );
}
const redisUrl = env("REDIS_URL") ?? "redis://127.0.0.1:6379";

/** How long each of the report's six steps takes, in ms (about 3 s in all). */
const STEP_MS = 500;
const STEPS = ["orders", "refunds", "currency", "totals", "charts", "summary"];

/** A figure that depends on the report's input alone: a run started again computes the same report. */
function figure(seed: string, scale: number): number {
  let hash = 2166136261;
  for (const char of seed) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash % scale;
}

/**
 * A quarter's sales report for a region, as declared work (`.defer()`): each call answers with a promise at once,
 * and a worker runs the work, never a handler. `retry` lets a job whose worker died start again on another
 * (three starts in all): the work computes its report from the arguments and writes nowhere else, so running it
 * twice is harmless (idempotent).
 */
export const buildReport = defineTool("build_report")
  .type("analysis")
  .describe("Builds a region's sales report for a quarter on a worker (about 3 s); redeem the token on any instance")
  .input(v.object({
    region: v.picklist(["emea", "amer", "apac"]),
    quarter: v.pipe(v.string(), v.regex(/^\d{4}-Q[1-4]$/, "a quarter such as 2026-Q3")),
  }))
  .output(v.object({
    region: v.string(),
    quarter: v.string(),
    orders: v.number(),
    revenue: v.number(),
    builtBy: v.object({ host: v.string(), pid: v.number() }),
  }))
  .longRunning({ retryAfterMs: 1_000, retry: { attempts: 3, backoffMs: 500 } })
  .defer(async ({ region, quarter }, work) => {
    for (const [i, step] of STEPS.entries()) {
      await new Promise((resolve) => setTimeout(resolve, STEP_MS));
      work.signal.throwIfAborted(); // cancelled, or the worker shuts down past its drain time
      work.progress(i + 1, STEPS.length, step); // carried by BullMQ to the streams that follow it, on any instance
    }
    const seed = `${region}/${quarter}`;
    return {
      region,
      quarter,
      orders: 1_000 + figure(seed, 9_000),
      revenue: 100_000 + figure(`${seed}/revenue`, 900_000),
      builtBy: { host: hostname(), pid: process.pid }, // which process ran the work
    };
  });

const redis = new Redis(redisUrl);
redis.on("error", (error) => console.error("redis:", error.message));

/** The server of every web instance and worker: results in Redis, jobs in a BullMQ queue on it. */
export const server = createServer({
  name: "reports",
  version: "1.0.0",
  resultStore: redisResultStore(redis),
  queue: bullmqQueue({ connection: { url: redisUrl }, name: "reports", lockMs: Number(env("LOCK_MS") ?? 5_000) }),
}).tool(buildReport);

if (import.meta.main) {
  await serve(server); // PORT, HOSTNAME; prints "Listening on http://…"
}
