/**
 * The queues alone, without the SDK, for comparison with `bench/queue.ts`: BullMQ on Redis, BullMQ on
 * PostgreSQL (`createPostgresBackend`), and pg-boss when an install of it is given (`--pgboss <dir>`, a
 * folder whose `node_modules/pg-boss` is an `npm i pg-boss` made outside this repository: pg-boss is not
 * a dependency of it). Starts its own redis-server and PostgreSQL on free 127.0.0.1 ports, stops them.
 *
 *   bun bench/queue-raw.ts [--pgboss /var/tmp/pgboss] [--jobs 2000] [--latency 300] [--rounds 3] [--read-ms 20]
 *   deno run -A bench/queue-raw.ts …
 *   bun build bench/queue-raw.ts --target=node --packages=external --outfile=node_modules/.cache/mcplite-bench/queue-raw.mjs
 *   bun build bench/queue-raw-worker.ts … --outfile=node_modules/.cache/mcplite-bench/queue-raw-worker.mjs (the same)
 *   node node_modules/.cache/mcplite-bench/queue-raw.mjs …
 *
 * One process adds and takes: jobs are added `--inflight` (32) at once, a consumer takes them 8 at once
 * (BullMQ's `concurrency: 8`, as `runWorker()`'s default; pg-boss: 8 local workers fetching one job each,
 * woken by LISTEN/NOTIFY, and one worker fetching batches of 8 that fetches again at once while batches
 * come full). Each job's handler awaits 10 ms, or nothing. Throughput: first add to the end of the last
 * handler, `--rounds` rounds, systems in an order that rotates; CPU per job of this process and of the
 * database. Latency: `--latency` jobs one at a time, from the call to `add` to the handler's start.
 *
 * Like for like with `bench/queue.ts` (a web process and a worker process), on each backend: BullMQ alone in two
 * processes (this one adds, a child on the same runtime, `bench/queue-raw-worker.ts`, takes 8 at once; it says
 * when the count is reached, nothing is read back), and the floor of a server that keeps results in a store: the
 * same two processes, the worker writing each job's result once (`bench/queue-floor-store.ts`: Redis `SET … PX`,
 * or PostgreSQL's `INSERT … ON CONFLICT` of `postgresResultStore`), this process reading each result once it is
 * written, in order, `--read-ms` (20) apart while the next is not there, as `bench/queue-run.ts` reads (reads per
 * job counted). And the design's floor, the store round trips a queued job of ours makes: the same, plus the
 * job's entry written as it is added (a `working` entry, here) and read by the worker before it runs it (three
 * round trips and the read back). CPU per job of this process, the child and the database; no latency row for
 * these.
 *
 * @module
 */
import type { ChildProcess } from "node:child_process";
import process from "node:process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { POSTGRES_MISSING, startPostgres } from "../tests/helpers/postgres-server.ts";
import { REDIS_MISSING, startRedis } from "../tests/helpers/redis-server.ts";
import { median, runtime } from "./harness.ts";
import { cpuMs, databasePid, tree } from "./queue-cpu.ts";
import { type FloorStore, floorStore, WORKING } from "./queue-floor-store.ts";
import { bullmqOn, raiseMaxConnections, startChild } from "./queue-processes.ts";
import { flag } from "./exec.ts";

const JOBS = Number(flag("jobs", "2000"));
const LATENCY_JOBS = Number(flag("latency", "300"));
const ROUNDS = Number(flag("rounds", "3"));
const INFLIGHT = Number(flag("inflight", "32"));
const PGBOSS = flag("pgboss", "");
const CONCURRENCY = 8;
/** The floor's reader: ms between two reads of a result not written yet. */
const READ_MS = Number(flag("read-ms", "20"));

/** A queue under test: `add` one job; its consumer calls `onJob` with the job's data and awaits the returned promise. */
interface System {
  readonly name: string;
  readonly backend: "redis" | "postgres";
  /** Why its throughput is not measured, if it is not. */
  readonly noThroughput?: string;
  /** Its consumer's process, when not this one. */
  readonly child?: Child;
  /** The floor's store: each job's result is read back from it under its key. */
  readonly store?: FloorStore;
  add(data: { i: number; ms: number; key?: string }): Promise<void>;
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
  const { Queue, Worker, connection } = bullmqOn(backend, url);
  const queue = new Queue(name, { connection });
  const worker = new Worker(name, (job) => handle(job.data), { connection, concurrency: 8 });
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

/** A consumer in a child process (`bench/queue-raw-worker.ts`). */
interface Child {
  readonly process: ChildProcess;
  readonly exited: Promise<void>;
  /** Resets its count of jobs done; resolves once it has read that, with the count reached (`done`). */
  expect(jobs: number): Promise<{ done: Promise<void> }>;
}

/** What a two-process system does beside BullMQ: nothing, the floor, or the design's floor (see the header). */
type Mode = "alone" | "floor" | "design";

async function startConsumer(backend: "redis" | "postgres", url: string, queue: string, mode: Mode): Promise<Child> {
  const env = { BACKEND: backend, URL: url, QUEUE: queue, FLOOR: { alone: "0", floor: "1", design: "3" }[mode] };
  const { child, exited } = await startChild("queue-raw-worker", env, "consumer", "pipe");
  const waiting: ((line: string) => void)[] = [];
  let out = "";
  child.stdout!.on("data", (chunk) => {
    out += chunk;
    for (let nl = out.indexOf("\n"); nl !== -1; nl = out.indexOf("\n")) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      waiting.shift()?.(line);
    }
  });
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  return {
    process: child,
    exited,
    async expect(jobs) {
      const ok = next();
      const done = next();
      child.stdin!.write(`expect ${jobs}\n`);
      if (await ok !== "ok") throw new Error("the consumer did not take the count");
      return { done: done.then(() => {}) };
    },
  };
}

/** BullMQ with its consumer in a child process; with a floor, the consumer writes each result, read back here. */
async function twoProcesses(
  backend: "redis" | "postgres",
  url: string,
  name: string,
  mode: Mode,
): Promise<System> {
  const { Queue, connection } = bullmqOn(backend, url);
  const queue = new Queue(name, { connection });
  queue.on("error", (error) => console.error(`${name}: ${error}`));
  await queue.waitUntilReady();
  const store = mode === "alone" ? undefined : floorStore(backend, url);
  await store?.prepare();
  const child = await startConsumer(backend, url, name, mode);
  const db = backend === "redis" ? "Redis" : "PostgreSQL";
  return {
    name: {
      alone: `BullMQ on ${db}, two processes`,
      floor: `floor on ${db} (two processes, one write and one read per job)`,
      design: `design floor on ${db} (two processes, three round trips and one read per job)`,
    }[mode],
    backend,
    child,
    store,
    add: async (data) => {
      if (mode === "design") await store!.write(data.key!, WORKING);
      await queue.add("job", data, { removeOnComplete: true });
    },
    close: async () => {
      child.process.stdin!.end();
      const timer = setTimeout(() => child.process.kill("SIGKILL"), 10_000);
      await child.exited;
      clearTimeout(timer);
      await queue.close();
      await store?.close();
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
): Promise<{ jps: number; cpu: number; child: number; db: number; reads: number }> {
  let done = 0;
  let finished!: () => void;
  let all = new Promise<void>((resolve) => finished = resolve);
  onJob = () => {
    if (++done === jobs) finished();
    return Promise.resolve();
  };
  const tag = `${system.name.length}-${Date.now().toString(36)}`;
  if (system.child !== undefined && system.store === undefined) all = (await system.child.expect(jobs)).done;
  const childPid = system.child?.process.pid;
  const dbCpu = () => new Map((dbPid === undefined ? [] : tree(dbPid)).map((pid) => [pid, cpuMs(pid)]));
  const dbBefore = dbCpu();
  const before = cpuMs(process.pid);
  const childBefore = childPid === undefined ? 0 : cpuMs(childPid);
  const start = performance.now();
  let issued = 0, reads = 0;
  const adds = Promise.all(Array.from({ length: Math.min(INFLIGHT, jobs) }, async () => {
    while (issued < jobs) {
      const i = issued++;
      await system.add({ i, ms, key: system.store === undefined ? undefined : `${tag}:${i}` });
    }
  }));
  const store = system.store;
  if (store !== undefined) {
    // As `bench/queue-run.ts` reads: each job's result in order, READ_MS apart while the next is not there.
    for (let i = 0; i < jobs;) {
      if (i >= issued) {
        await sleep(READ_MS);
        continue;
      }
      reads++;
      const value = await store.read(`${tag}:${i}`);
      const status = value === undefined ? "working" : (JSON.parse(value) as { status: string }).status;
      if (status === "working") await sleep(READ_MS);
      else if (status !== "completed") throw new Error(`job ${i}: ${value}`);
      else i++;
    }
  }
  await adds;
  if (store === undefined) await all;
  const seconds = (performance.now() - start) / 1000;
  const cpu = cpuMs(process.pid) - before;
  const child = childPid === undefined ? 0 : cpuMs(childPid) - childBefore;
  let db = 0;
  for (const [pid, used] of dbCpu()) db += used - (dbBefore.get(pid) ?? 0);
  return { jps: jobs / seconds, cpu: cpu / jobs, child: child / jobs, db: db / jobs, reads: reads / jobs };
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
await raiseMaxConnections(postgres); // the two-process rows' pools (BullMQ's and the floor's, each side)
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
  for (const backend of ["redis", "postgres"] as const) {
    const url = backend === "redis" ? redis.url : postgres.url;
    systems.push(await twoProcesses(backend, url, `two-${tag}`, "alone"));
    systems.push(await twoProcesses(backend, url, `floor-${tag}`, "floor"));
    systems.push(await twoProcesses(backend, url, `design-${tag}`, "design"));
  }
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
  const rows = new Map<string, { jps: number[]; cpu: number[]; child: number[]; db: number[]; reads: number[] }>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const ms of [10, 0]) {
      for (let i = 0; i < systems.length; i++) {
        const system = systems[(i + round) % systems.length];
        if (system.noThroughput !== undefined) continue;
        const key = `${system.name}|${ms}`;
        const row = rows.get(key) ?? rows.set(key, { jps: [], cpu: [], child: [], db: [], reads: [] }).get(key)!;
        const { jps, cpu, child, db, reads } = await throughput(system, JOBS, ms, pids[system.backend]);
        row.jps.push(jps);
        row.cpu.push(cpu);
        row.child.push(child);
        row.db.push(db);
        row.reads.push(reads);
      }
    }
    console.error(`  throughput round ${round + 1}/${ROUNDS} done`);
  }
  const latency = new Map<string, number[]>(systems.map((s) => [s.name, []]));
  const inProcess = systems.filter((s) => s.child === undefined);
  for (let i = 0; i < LATENCY_JOBS; i++) {
    for (let j = 0; j < inProcess.length; j++) {
      const system = inProcess[(i + j) % inProcess.length];
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
    "| queue | 10 ms jobs: jobs/s · CPU ms/job (this process + consumer process + database) | no work: jobs/s · CPU ms/job | add → handler p50 / p99 ms |",
  );
  console.log("|---|---|---|---|");
  for (const system of systems) {
    const cells = [10, 0].map((ms) => {
      const row = rows.get(`${system.name}|${ms}`);
      if (row === undefined) return `not measured: ${system.noThroughput}`;
      const cpu = median(row.cpu), child = median(row.child), db = median(row.db);
      const total = median(row.cpu.map((c, i) => c + row.child[i] + row.db[i]));
      const reads = system.store === undefined ? "" : ` · ${median(row.reads).toFixed(2)} reads/job`;
      return `${range(row.jps)} · ${total.toFixed(2)} (${cpu.toFixed(2)} + ${child.toFixed(2)} + ${
        db.toFixed(2)
      })${reads}`;
    });
    const times = latency.get(system.name)!;
    const handover = times.length === 0 ? "–" : `${median(times).toFixed(2)} / ${percentile(times, 0.99).toFixed(2)}`;
    console.log(`| ${system.name} | ${cells.join(" | ")} | ${handover} |`);
  }
  // The same, for a script that takes ratios within a run.
  console.error(`BENCH_RAW ${JSON.stringify(Object.fromEntries(rows))}`);
} finally {
  for (const system of systems) await system.close().catch((error) => console.error(`${system.name}: ${error}`));
  await redis.stop();
  await postgres.remove();
  clearTimeout(watchdog);
}
process.exit(0);
