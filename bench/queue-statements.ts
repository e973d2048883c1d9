/**
 * Where PostgreSQL's time goes per queued job (issue 100, "Cost"): the statements the database runs for each job,
 * counted by `pg_stat_statements` on a PostgreSQL started here, in three setups one after another on the same cluster:
 * BullMQ alone (a `Queue` adding, a `Worker` taking, 8 at once, each job removed as it completes), our server on
 * BullMQ with a worker in this process (`runWorker()`, concurrency 8; completed jobs kept an hour, the default, then
 * removed as they complete), and our server given no queue (the queue kept in the store, the default). Each runs
 * `--jobs` calls of a tool whose work awaits nothing, `--inflight` at once, each result read as a client reads it (our
 * setups: a redeem each 20 ms until it ends); the statistics are reset before each. Prints, per setup, the statements by kind: calls
 * and execution ms per job, and the total; the database's own CPU is not counted here (`bench/queue.ts` does).
 *
 *   bun bench/queue-statements.ts [--jobs 2000] [--inflight 32] [--top 12]
 *
 * Needs PostgreSQL's `pg_stat_statements` (its contrib module, beside `postgres`).
 *
 * @module
 */
import process from "node:process";
import pg from "pg";
import { type CallOutcome, runWorker } from "../mod.ts";
import { POSTGRES_MISSING, startPostgres } from "../tests/helpers/postgres-server.ts";
import { bullmqOn } from "./queue-processes.ts";
import { queueBenchServer } from "./queue-server.ts";
import { flag } from "./exec.ts";

const JOBS = Number(flag("jobs", "2000"));
const INFLIGHT = Number(flag("inflight", "32"));
const TOP = Number(flag("top", "12"));

/** A statement as `pg_stat_statements` counts it. */
interface Counted {
  readonly query: string;
  readonly calls: number;
  readonly ms: number;
}

/** What the database ran since the last reset, its own bookkeeping left out, the costliest first. */
async function statements(admin: pg.Client): Promise<Counted[]> {
  const { rows } = await admin.query(
    `SELECT query, calls::float8 AS calls, total_exec_time AS ms FROM pg_stat_statements
     WHERE query NOT ILIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC`,
  );
  return rows as Counted[];
}

/** Runs `one(n)` for n in 0..JOBS-1, `INFLIGHT` at once. */
async function all(one: (n: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: INFLIGHT }, async () => {
    while (next < JOBS) await one(next++);
  }));
}

/** A call of `io0`, then its result, read as a client reads it (a redeem each 20 ms while not ended). */
async function callAndRead(server: { call(name: string, args: unknown): Promise<CallOutcome> }, n: number) {
  let outcome = await server.call("io0", { n });
  while (outcome.kind === "promise") {
    await new Promise((resolve) => setTimeout(resolve, 20));
    outcome = await server.call("redeem", { promise: outcome.token });
  }
  if (outcome.kind !== "answer") throw new Error(`job ${n} ended ${JSON.stringify(outcome).slice(0, 300)}`);
}

/** The setups, each run once after a reset; BullMQ's schema is made before. */
const setups: [string, (url: string) => Promise<void>][] = [
  ["BullMQ alone (add, take 8 at once)", async (url) => {
    const { Queue, Worker, connection } = bullmqOn("postgres", url);
    const name = `statements-raw-${crypto.randomUUID()}`;
    const queue = new Queue(name, { connection });
    const done = new Map<string, () => void>();
    const worker = new Worker(name, (job) => (done.get(job.id!)?.(), Promise.resolve()), {
      connection,
      concurrency: 8,
      removeOnComplete: { count: 0 },
    });
    try {
      await all(async (n) => {
        const ran = new Promise<void>((resolve) => done.set(`j${n}`, resolve));
        await queue.add("job", { n }, { jobId: `j${n}`, removeOnComplete: true });
        await ran;
      });
    } finally {
      await worker.close();
      await queue.close();
    }
  }],
  ...[undefined, 0].map((keepCompletedMs): [string, (url: string) => Promise<void>] => [
    `ours on BullMQ, a worker here (runWorker, 8 at once), completed jobs ${
      keepCompletedMs === 0 ? "removed" : "kept an hour (the default)"
    }`,
    async (url) => {
      const queue = `statements-${crypto.randomUUID()}`;
      const made = await queueBenchServer({ backend: "postgres", url, queue, keepCompletedMs });
      const worker = runWorker(made.server);
      try {
        await all((n) => callAndRead(made.server, n));
      } finally {
        await worker.close();
        await made.close();
      }
    },
  ]),
  ["ours, the queue kept in the store (no queue given)", async (url) => {
    const made = await queueBenchServer({ backend: "postgres", url });
    try {
      await all((n) => callAndRead(made.server, n));
    } finally {
      await made.server.drain();
      // Its taker stops as the server drains, not by the time drain() resolves: its last look, before the pool ends.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await made.close();
    }
  }],
];

if (POSTGRES_MISSING) {
  console.error(`queue-statements: ${POSTGRES_MISSING}`);
  process.exit(1);
}
const postgres = await startPostgres();
try {
  let admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'");
  await admin.query("ALTER SYSTEM SET max_connections = 400");
  await admin.end();
  await postgres.stop();
  await postgres.restart();
  admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query("CREATE EXTENSION pg_stat_statements");
  for (const [name, run] of setups) {
    await admin.query("SELECT pg_stat_statements_reset()");
    const started = performance.now();
    await run(postgres.url);
    const seconds = (performance.now() - started) / 1000;
    const counted = await statements(admin);
    const calls = counted.reduce((sum, each) => sum + each.calls, 0);
    const ms = counted.reduce((sum, each) => sum + each.ms, 0);
    console.log(`\n#### ${name}: ${JOBS} jobs in ${seconds.toFixed(1)} s`);
    console.log(`statements a job ${(calls / JOBS).toFixed(1)}, execution ms a job ${(ms / JOBS).toFixed(3)}\n`);
    console.log("| statement | calls a job | ms a job |");
    console.log("|---|---:|---:|");
    for (const each of counted.slice(0, TOP)) {
      const text = each.query.replace(/\s+/g, " ").slice(0, 110).replaceAll("|", "\\|");
      console.log(`| \`${text}\` | ${(each.calls / JOBS).toFixed(2)} | ${(each.ms / JOBS).toFixed(3)} |`);
    }
  }
  await admin.end();
} finally {
  await postgres.remove();
}
process.exit(0);
