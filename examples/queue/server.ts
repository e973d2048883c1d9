/**
 * Queued long-running work in steps: web instances answer calls, workers run the tool's declared work. The
 * same module is both: served (`PORT=8001 deno run -A --unstable-no-legacy-abort examples/queue/server.ts`)
 * it is a web instance, which answers a `build_report` call with a promise at once and adds the job to a
 * BullMQ queue on Redis; loaded by `mcplite worker examples/queue/server.ts` it is a worker, which runs the
 * work (two journaled steps around a durable sleep) and writes the result to the Redis result store, where a
 * redeem on any instance finds it. `publish_report` runs that work as a child job, then waits for an approval
 * POSTed to a signed URL. examples/queue/README.md runs two of each.
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
import { createServer, defineTool, env, invoke, serve, signals } from "../../mod.ts";
import { bullmqQueue } from "../../src/bullmq/mod.ts";
import { WaitTimeoutError } from "../../src/errors/mod.ts";
import { redisResultStore } from "../../src/redis/mod.ts";

if ((env("MCPLITE_SECRET") ?? "").length < 32) {
  throw new Error(
    "set MCPLITE_SECRET (32 bytes or more), the same on every web instance and worker: " +
      "jobs and promise tokens are signed with it",
  );
}
const redisUrl = env("REDIS_URL") ?? "redis://127.0.0.1:6379";
const redis = new Redis(redisUrl);
redis.on("error", (error) => console.error("redis:", error.message));

/** How long each of the report's two steps computes, in ms. */
const STEP_MS = 500;
/** How long the report waits between its steps (for the quarter's ledger to close, say), in ms. */
const SLEEP_MS = 2_000;

/** A figure that depends on the report's input alone. */
function figure(seed: string, scale: number): number {
  let hash = 2166136261;
  for (const char of seed) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash % scale;
}

/** This process, as a report names the process that ran each of its steps. */
const here = () => ({ host: hostname(), pid: process.pid });
/** A process, as the report's output names it. */
const ranBy = v.object({ host: v.string(), pid: v.number() });
/** A report's input: a region and a quarter. */
const reportInput = v.object({
  region: v.picklist(["emea", "amer", "apac"]),
  quarter: v.pipe(v.string(), v.regex(/^\d{4}-Q[1-4]$/, "a quarter such as 2026-Q3")),
});
/** A report, as `build_report` answers it. */
const report = v.object({
  region: v.string(),
  quarter: v.string(),
  orders: v.number(),
  revenue: v.number(),
  published: v.string(),
  steps: v.object({ orders: ranBy, revenue: ranBy }),
  builtBy: ranBy,
});
/** How long a report waits for its approval, in ms; past it the wait throws a `WaitTimeoutError`. */
const APPROVAL_MS = 10 * 60_000;

/** Waits `ms`, or rejects once the work's signal aborts (cancelled, or the worker shuts down past its drain time). */
function compute(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

/**
 * A quarter's sales report for a region, as declared work: no handler, so every call is answered with a
 * promise and a worker runs the function below, never a web instance. Each `work.step()` is journaled in the
 * result store: a later start of the same job (the wake-up after `work.sleep()`, a retry after a worker died)
 * returns its recorded value without running it again. `work.sleep()` gives the job back to BullMQ, delayed:
 * no worker's slot is held meanwhile, and either worker may take it up. `retry` lets a job whose worker died
 * resume on another (three starts in all), after its last recorded step.
 */
export const buildReport = defineTool("build_report")
  .type("analysis")
  .describe("Builds a region's sales report for a quarter on a worker (about 3 s); redeem the token on any instance")
  .input(reportInput)
  .output(report)
  .longRunning({ retryAfterMs: 1_000, retry: { attempts: 3, backoff: 500 } })
  .defer(async ({ region, quarter }, work) => {
    const seed = `${region}/${quarter}`;
    const orders = await work.step("orders", async () => {
      await compute(STEP_MS, work.signal);
      return { count: 1_000 + figure(seed, 9_000), by: here() };
    });
    work.progress(1, 3, "orders"); // carried by BullMQ to the streams that follow the job, on any instance
    await work.sleep(SLEEP_MS); // durable: the job waits in BullMQ's delayed set, not in a worker
    work.progress(2, 3, "waited");
    const revenue = await work.step("revenue", async (key) => {
      await compute(STEP_MS, work.signal);
      const total = 100_000 + figure(`${seed}/revenue`, 900_000);
      // An effect outside the store, keyed by the step's key: a worker killed inside this step runs it again on
      // the next start (at least once), and SET NX makes that second write a no-op.
      await redis.set(`reports:${key}`, JSON.stringify({ region, quarter, total }), "EX", 3_600, "NX");
      return { total, published: `reports:${key}`, by: here() };
    });
    work.progress(3, 3, "revenue");
    return {
      region,
      quarter,
      orders: orders.count,
      revenue: revenue.total,
      published: revenue.published,
      steps: { orders: orders.by, revenue: revenue.by }, // which process ran each step, once
      builtBy: here(), // which process finished the work
    };
  });

/**
 * A report built by a child job, published once someone approves it. `invoke()` runs `build_report`'s work as a job
 * of its own, on whichever worker takes it, and journals its id and its end: a start of this job after a worker died
 * waits for that child instead of building the report again. `work.signalUrl()` makes a signed, expiring URL that
 * signals this job once; the `ask` step prints it (once, however often the job starts again) as the command an
 * approver runs. `work.waitFor()` then gives the job back to the queue, holding no worker slot, until a POST to that
 * URL (served by any web instance) wakes it with its payload.
 */
export const publishReport = defineTool("publish_report")
  .describe("Builds a region's report for a quarter (a child job), then publishes it once someone approves it")
  .input(reportInput)
  .output(v.object({ report, approvedBy: v.nullable(v.string()) }))
  .longRunning({ retryAfterMs: 1_000, retry: { attempts: 3, backoff: 500 } })
  .defer(async ({ region, quarter }, work) => {
    const built = await invoke(work, "report", buildReport, { region, quarter }); // the child's result, typed
    work.progress(1, 2, "report built");
    await work.step("ask", async () => {
      const url = await work.signalUrl("approved"); // at signals({ publicUrl }), else the call's loopback host
      const approve = `curl -s -X POST '${url}' -H 'content-type: application/json' -d '{"by":"ada"}'`;
      console.log(`approve the ${region} report for ${quarter} (revenue ${built.revenue}): ${approve}`);
    });
    try {
      const { by } = await work.waitFor("approved", { timeoutMs: APPROVAL_MS, schema: v.object({ by: v.string() }) });
      work.progress(2, 2, "approved");
      return { report: built, approvedBy: by };
    } catch (error) {
      if (!(error instanceof WaitTimeoutError)) throw error;
      return { report: built, approvedBy: null }; // nobody approved it in time: not published
    }
  });

/**
 * The server of every web instance and worker: results in Redis, jobs in a BullMQ queue on it; `signals()` serves
 * the approval URLs (on a web instance) and gives the work `waitFor()` and `signalUrl()` (on a worker).
 */
export const server = createServer({
  name: "reports",
  version: "1.0.0",
  resultStore: redisResultStore(redis),
  queue: bullmqQueue({ connection: { url: redisUrl }, name: "reports", lockMs: Number(env("LOCK_MS") ?? 5_000) }),
  signals: signals(),
}).tool(buildReport).tool(publishReport);

if (import.meta.main) {
  await serve(server); // PORT, HOSTNAME; prints "Listening on http://…"
}
