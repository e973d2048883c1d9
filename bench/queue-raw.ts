/**
 * The queues alone, without the SDK, for comparison with `bench/queue.ts`: BullMQ on Redis, BullMQ on
 * PostgreSQL (`createPostgresBackend`), and pg-boss when an install of it is given (`--pgboss <dir>`, a
 * folder whose `node_modules/pg-boss` is an `npm i pg-boss` made outside this repository: pg-boss is not
 * a dependency of it). Starts its own redis-server and PostgreSQL on free 127.0.0.1 ports, stops them.
 *
 *   bun bench/queue-raw.ts [--pgboss /var/tmp/pgboss] [--jobs 2000] [--latency 300] [--rounds 3]
 *   deno run -A bench/queue-raw.ts …
 *   bun build bench/queue-raw.ts --target=node --packages=external --outfile=node_modules/.cache/mcplite-bench/queue-raw.mjs
 *   node node_modules/.cache/mcplite-bench/queue-raw.mjs …
 *
 * One process adds and takes: jobs are added `--inflight` (32) at once, a consumer takes them 8 at once
 * (BullMQ's `concurrency: 8`, as `runWorker()`'s default; pg-boss: 8 local workers fetching one job each,
 * woken by LISTEN/NOTIFY, and one worker fetching batches of 8 that fetches again at once while batches
 * come full). Each job's handler awaits 10 ms, or nothing. Throughput: first add to the end of the last
 * handler, `--rounds` rounds, systems in an order that rotates; CPU per job of this process and of the
 * database. Latency: `--latency` jobs one at a time, from the call to `add` to the handler's start.
 *
 * @module
 */
import process from "node:process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createPostgresBackend, Queue, withBackend, Worker } from "bullmq";
import { POSTGRES_MISSING, startPostgres } from "../tests/helpers/postgres-server.ts";
import { REDIS_MISSING, startRedis } from "../tests/helpers/redis-server.ts";
import { median, runtime } from "./harness.ts";
import { cpuMs, databasePid, tree } from "./queue-cpu.ts";

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
}

const JOBS = Number(flag("jobs", "2000"));
const LATENCY_JOBS = Number(flag("latency", "300"));
const ROUNDS = Number(flag("rounds", "3"));
const INFLIGHT = Number(flag("inflight", "32"));
const PGBOSS = flag("pgboss", "");
const CONCURRENCY = 8;

/** A queue under test: `add` one job; its consumer calls `onJob` with the job's data and awaits the returned promise. */
interface System {
  readonly name: string;
  readonly backend: "redis" | "postgres";
  /** Why its throughput is not measured, if it is not. */
  readonly noThroughput?: string;
  add(data: { i: number; ms: number }): Promise<void>;
  close(): Promise<void>;
}

/** What the consumer does with a job: the bench's hook, set per measurement. */
let onJob: (data: { i: number; ms: number }) => Promise<void> = () => Promise.resolve();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const handle = async (data: { i: number; ms: number }) => {
  if (data.ms > 0) await sleep(data.ms);
  await onJob(data);
};

async function bullmq(backend: "redis" | "postgres", url: string, name: string): Promise<System> {
  const classes = backend === "redis"
    ? { Queue, Worker }
    : withBackend(createPostgresBackend) as unknown as { Queue: typeof Queue; Worker: typeof Worker };
  const connection = backend === "redis"
    ? { host: "127.0.0.1", port: Number(new URL(url).port) }
    : { connectionString: url, migrate: true };
  const queue = new classes.Queue(name, { connection: connection as any });
  const worker = new classes.Worker(name, (job) => handle(job.data), { connection: connection as any, concurrency: 8 });
  queue.on("error", (error) => console.error(`${name}: ${error}`));
  worker.on("error", (error) => console.error(`${name}: ${error}`));
  await worker.waitUntilReady();
  return {
    name: `BullMQ on ${backend === "redis" ? "Redis" : "PostgreSQL"}`,
    backend,
    add: async (data) => void await queue.add("job", data, { removeOnComplete: true }),
    close: async () => {
      await worker.close();
      await queue.close();
    },
  };
}

async function pgBoss(url: string, batch: boolean): Promise<System> {
  const { PgBoss } = await import(pathToFileURL(join(PGBOSS, "node_modules", "pg-boss", "dist", "index.js")).href);
  const boss = new PgBoss({ connectionString: url, useListenNotify: true });
  boss.on("error", (error: unknown) => console.error(`pg-boss: ${error}`));
  await boss.start();
  const name = `bench-${batch ? "batch" : "each"}`;
  await boss.createQueue(name, { notify: true });
  const options = batch
    ? { batchSize: CONCURRENCY, burstWhenBatchFull: true, localConcurrency: 1 }
    : { batchSize: 1, localConcurrency: CONCURRENCY, pollingIntervalSeconds: 0.5 };
  await boss.work(name, options, async (jobs: { data: { i: number; ms: number } }[]) => {
    await Promise.all(jobs.map((job) => handle(job.data)));
  });
  return {
    name: batch ? "pg-boss, batches of 8" : "pg-boss, 8 workers",
    backend: "postgres",
    // A worker that fetched a job waits out its poll unless a NOTIFY (an add) wakes it: once the adds
    // stop, a backlog drains at 8 jobs per poll (0.5 s at least). Bursts need batches (`burstWhenBatchFull`).
    noThroughput: batch ? undefined : "a backlog drains at 8 jobs per poll (≥ 0.5 s) once the adds stop",
    add: async (data) => void await boss.send(name, data),
    close: () => boss.stop({ graceful: true, timeout: 5_000 }),
  };
}

/** `jobs` jobs of `ms` through a system; jobs/s, and CPU ms per job of this process and the database. */
async function throughput(
  system: System,
  jobs: number,
  ms: number,
  dbPid: number | undefined,
): Promise<{ jps: number; cpu: number; db: number }> {
  let done = 0;
  let finished!: () => void;
  const all = new Promise<void>((resolve) => finished = resolve);
  onJob = () => {
    if (++done === jobs) finished();
    return Promise.resolve();
  };
  const dbCpu = () => new Map((dbPid === undefined ? [] : tree(dbPid)).map((pid) => [pid, cpuMs(pid)]));
  const dbBefore = dbCpu();
  const before = cpuMs(process.pid);
  const start = performance.now();
  let issued = 0;
  await Promise.all(Array.from({ length: Math.min(INFLIGHT, jobs) }, async () => {
    while (issued < jobs) await system.add({ i: issued++, ms });
  }));
  await all;
  const seconds = (performance.now() - start) / 1000;
  const cpu = cpuMs(process.pid) - before;
  let db = 0;
  for (const [pid, used] of dbCpu()) db += used - (dbBefore.get(pid) ?? 0);
  return { jps: jobs / seconds, cpu: cpu / jobs, db: db / jobs };
}

/** One job of no work: ms from its add (called) to its handler's start. */
async function oneJob(system: System): Promise<number> {
  let started!: (at: number) => void;
  const handled = new Promise<number>((resolve) => started = resolve);
  onJob = () => {
    started(performance.now());
    return Promise.resolve();
  };
  const added = performance.now();
  await system.add({ i: -1, ms: 0 });
  return await handled - added;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
};

if (REDIS_MISSING || POSTGRES_MISSING) throw new Error(`${REDIS_MISSING || POSTGRES_MISSING}`);
const began = Date.now();
const redis = await startRedis();
const postgres = await startPostgres();
const systems: System[] = [];
// A run that hangs still stops its servers.
const watchdog = setTimeout(async () => {
  console.error("queue-raw: no end after 30 min; stopping");
  await redis.stop();
  await postgres.remove();
  process.exit(1);
}, 1_800_000);
try {
  const tag = Date.now().toString(36);
  console.error("starting the queues");
  systems.push(await bullmq("redis", redis.url, `raw-${tag}`));
  systems.push(await bullmq("postgres", postgres.url, `raw-${tag}`));
  if (PGBOSS) {
    systems.push(await pgBoss(postgres.url, false));
    systems.push(await pgBoss(postgres.url, true));
  } else console.error("pg-boss: not measured (no --pgboss <dir>)");
  const pids = {
    redis: await databasePid("redis", redis.url),
    postgres: await databasePid("postgres", postgres.url),
  };
  for (const system of systems) {
    const ms = system.noThroughput === undefined ? [10, 0] : [];
    for (const each of ms) await throughput(system, 200, each, undefined); // warm-up
    console.error(`  ${system.name}: warmed up`);
  }
  const rows = new Map<string, { jps: number[]; cpu: number[]; db: number[] }>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const ms of [10, 0]) {
      for (let i = 0; i < systems.length; i++) {
        const system = systems[(i + round) % systems.length];
        if (system.noThroughput !== undefined) continue;
        const key = `${system.name}|${ms}`;
        const row = rows.get(key) ?? rows.set(key, { jps: [], cpu: [], db: [] }).get(key)!;
        const { jps, cpu, db } = await throughput(system, JOBS, ms, pids[system.backend]);
        row.jps.push(jps);
        row.cpu.push(cpu);
        row.db.push(db);
      }
    }
    console.error(`  throughput round ${round + 1}/${ROUNDS} done`);
  }
  const latency = new Map<string, number[]>(systems.map((s) => [s.name, []]));
  for (let i = 0; i < LATENCY_JOBS; i++) {
    for (let j = 0; j < systems.length; j++) {
      const system = systems[(i + j) % systems.length];
      latency.get(system.name)!.push(await oneJob(system));
    }
  }
  const { name, version } = runtime();
  const range = (values: number[]) =>
    `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
  console.log(
    `Measured ${new Date().toISOString().slice(0, 10)}: \`${
      [
        name === "deno" ? "deno run -A" : name === "node" ? "node (bun build --target=node of)" : name,
        "bench/queue-raw.ts",
        ...process.argv.slice(2),
      ].join(" ")
    }\` on ${name} ${version} (${
      ((Date.now() - began) / 60000).toFixed(1)
    } min); ${JOBS} jobs, ${INFLIGHT} adds at once, ` +
      `${CONCURRENCY} jobs at once; median of ${ROUNDS} rounds (min–max).\n`,
  );
  console.log(
    "| queue | 10 ms jobs: jobs/s · CPU ms/job (this process + database) | no work: jobs/s · CPU ms/job | add → handler p50 / p99 ms |",
  );
  console.log("|---|---|---|---|");
  for (const system of systems) {
    const cells = [10, 0].map((ms) => {
      const row = rows.get(`${system.name}|${ms}`);
      if (row === undefined) return `not measured: ${system.noThroughput}`;
      const cpu = median(row.cpu), db = median(row.db);
      return `${range(row.jps)} · ${(cpu + db).toFixed(2)} (${cpu.toFixed(2)} + ${db.toFixed(2)})`;
    });
    const times = latency.get(system.name)!;
    console.log(
      `| ${system.name} | ${cells.join(" | ")} | ${median(times).toFixed(2)} / ${percentile(times, 0.99).toFixed(2)} |`,
    );
  }
} finally {
  for (const system of systems) await system.close().catch((error) => console.error(`${system.name}: ${error}`));
  await redis.stop();
  await postgres.remove();
  clearTimeout(watchdog);
}
process.exit(0);
