/**
 * One runtime's run of the queue bench (driven by `bench/queue.ts`, which starts redis-server and
 * PostgreSQL and passes their URLs): this process is the web instance; the workers are child processes
 * on the same runtime (`bench/queue-worker.ts`, `runWorker()` with its default concurrency of 8).
 *
 * For each backend, five targets share one result store on it: in process (a result store of one's own, so no queue:
 * the deferred work runs in this process, the default before issue 100), the queue kept in the store (the default
 * over a store of this SDK: this process queues and takes its jobs, 64 at once) and a BullMQ queue with 1, 2 and 4
 * workers (a queue name each, all seven workers started up front). Then:
 *
 * - throughput: `--jobs` calls of `io10` (10 ms of simulated I/O) and of `io0` (nothing), `--inflight`
 *   calls at once, timed from the first call to the moment the last result is found in the store (each
 *   job's entry read in order, `--read-ms` apart while the next has not ended: 20 by default, so that each
 *   result is read about once, as a client that waits for the worker to drain would, where 1, the reader
 *   before issue 76's floor round, read an entry many times, more with 10 ms of work; the reads per job are
 *   counted and printed; `--keep-completed-ms 0`: BullMQ removes each job as it completes, as `bench/queue-raw.ts`
 *   does, where `bullmqQueue` keeps it an hour by default); `--rounds` rounds, targets in an order that
 *   rotates with the round; the CPU time of this process, the target's workers and the database's
 *   processes (from /proc) over the same span, per job. A call refused as too busy (the in-process
 *   default runs at most 256 deferred jobs at once, `limits.jobs`) is sent again after the wait it names,
 *   as a client does, and counted;
 * - latency: `--latency` jobs of `io0` one at a time, targets interleaved: the call (until its promise
 *   answer), and from that answer until its result is in the store (polled back to back); interleaved with them,
 *   BullMQ's own hand-over on the same backend (a raw `Queue` and `Worker` in this process, concurrency 8: from
 *   the call to `add` to the handler's start, as `bench/queue-raw.ts` measures it), the bar of issue 85's first
 *   result (its hand-over + 1 ms at p50);
 * - resume (`--resume`, 3 jobs by default, one at a time): `steps`, 999 steps and a sleep of 100 ms, on a server of
 *   this process with a worker of its own (`runWorker()`, concurrency 8): the sleep hands the job back to the queue,
 *   and its next delivery resumes it, its 999 steps read from the journal; the journal's loads and appends per job
 *   (the backend store's own journal store, counted), the ms from the call to the result, CPU ms per job (this
 *   process and the database).
 *
 * The store entry of each call is learnt from the result store's first `working` write of it, made by
 * this process in both modes (`enqueueJob`, or `Continuations.start`). Prints a table, or with `--json`
 * one `BENCH_QUEUE {…}` line per backend.
 *
 * @module
 */
import type { ChildProcess } from "node:child_process";
import process from "node:process";
import { type ResultStore, runWorker } from "../mod.ts";
import { type Backend, benchStore, ended, queueBenchServer } from "./queue-server.ts";
import { median, runtime } from "./harness.ts";
import { cpuMs, databasePid, tree } from "./queue-cpu.ts";
import { bullmqOn, startChild } from "./queue-processes.ts";
import { flag } from "./exec.ts";

const BACKENDS = flag("backends", "redis,postgres").split(",") as Backend[];
const URLS: Record<Backend, string> = { redis: flag("redis", ""), postgres: flag("postgres", "") };
const JOBS = Number(flag("jobs", "1000"));
const LATENCY_JOBS = Number(flag("latency", "300"));
const ROUNDS = Number(flag("rounds", "3"));
const WORKERS = flag("workers", "1,2,4").split(",").map(Number);
const INFLIGHT = Number(flag("inflight", "32"));
/** The latency jobs' poll of the store: back to back (0), or this many ms apart. */
const POLL_MS = Number(flag("poll-ms", "0"));
/** The throughput reader: ms between two reads while the next job's entry has not ended. */
const READ_MS = Number(flag("read-ms", "20"));
/** `bullmqQueue`'s `keepCompletedMs` on the web instance and the workers; none: its default (an hour). */
const KEEP_COMPLETED_MS = flag("keep-completed-ms", "");
/** Jobs of the resume row (999 steps and a sleep each), one at a time. */
const RESUME_JOBS = Number(flag("resume", "3"));
const JSON_OUTPUT = process.argv.includes("--json");
const TOOLS = ["io10", "io0"] as const;
const START_MS = 90_000;

/** One thing measured: the in-process default, or a queue with some workers. */
interface Target {
  readonly name: string;
  readonly workers: number;
  readonly server: Awaited<ReturnType<typeof queueBenchServer>>["server"];
  readonly close: () => Promise<void>;
  /** The store entries of its calls, in the order their first `working` write came. */
  readonly ids: string[];
  readonly children: Worker[];
}

interface Worker {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
}

/** CPU ms per job, by process. */
export interface Cpu {
  web: number;
  workers: number;
  db: number;
  idle: number;
}

/** What one backend's run measured. */
export interface QueueRunResult {
  runtime: string;
  version: string;
  backend: Backend;
  jobs: number;
  inflight: number;
  rounds: number;
  latencyJobs: number;
  throughput: {
    target: string;
    tool: string;
    /** Jobs per second, one per round. */
    jps: number[];
    /** Calls refused as too busy and sent again after the wait they were told, over the rounds. */
    refused: number;
    /** Store reads per job by the throughput reader, one per round. */
    reads?: number[];
    /**
     * CPU ms per job, one per round: this process, the target's workers, the database's processes, and the
     * other targets' workers (idle meanwhile: what they cost is not the target's).
     */
    cpu: Cpu[];
  }[];
  latency: { target: string; call: { p50: number; p99: number }; first: { p50: number; p99: number } }[];
  /** BullMQ's own hand-over on the backend, interleaved with the latency jobs: `add` to the handler's start, ms. */
  handOver?: { p50: number; p99: number };
  /** The resume row: per job of 999 steps and a sleep, medians over the jobs. */
  resume?: { jobs: number; loads: number; appends: number; ms: number; cpu: { web: number; db: number } };
}

/** A store that tells each entry's first `working` write (not a lease's or a start's: those have a `:`). */
function recording(inner: ResultStore, onId: (id: string) => void): ResultStore {
  const seen = new Set<string>();
  return {
    get: (id) => inner.get(id),
    delete: (id) => inner.delete(id),
    set(id, entry, ttlMs) {
      if (entry.status === "working" && !id.includes(":") && !seen.has(id)) {
        seen.add(id);
        onId(id);
      }
      return inner.set(id, entry, ttlMs);
    },
  };
}

async function startWorker(backend: Backend, queue: string): Promise<Worker> {
  const env = { BACKEND: backend, URL: URLS[backend], QUEUE: queue, KEEP_COMPLETED_MS };
  return await startChild("queue-worker", env, "worker", "ignore", START_MS);
}

async function stopWorker(worker: Worker): Promise<void> {
  worker.child.kill("SIGTERM");
  const timer = setTimeout(() => worker.child.kill("SIGKILL"), 10_000);
  await worker.exited;
  clearTimeout(timer);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Checks an ended entry is the job's result. */
function checkResult(entry: unknown, id: string): void {
  const e = entry as { status: string; result?: { isError?: boolean } };
  if (e.status !== "completed" || e.result?.isError) throw new Error(`job ${id} ended ${JSON.stringify(entry)}`);
}

/**
 * Calls a tool as a client does: a refusal that says to send again later (the in-process default's bound on
 * the deferred jobs running at once, `limits.jobs`, 256) is sent again after its `retryAfterMs`.
 */
async function callAsClient(target: Target, tool: (typeof TOOLS)[number], n: number, onRefused: () => void) {
  for (;;) {
    try {
      return await target.server.call(tool, { n });
    } catch (error) {
      const retryAfterMs = (error as { data?: { retryAfterMs?: unknown } }).data?.retryAfterMs;
      if (typeof retryAfterMs !== "number") throw error;
      onRefused();
      await sleep(retryAfterMs);
    }
  }
}

/** `jobs` calls of `tool`, `INFLIGHT` at once; resolves with jobs/s and the CPU per job. */
async function throughput(
  target: Target,
  store: ResultStore,
  tool: (typeof TOOLS)[number],
  jobs: number,
  dbPid: number | undefined,
  idlePids: number[],
): Promise<{ jps: number; cpu: Cpu; refused: number; reads: number }> {
  const first = target.ids.length;
  const workerPids = target.children.map((w) => w.child.pid!);
  // The database's processes by pid: PostgreSQL forks a backend per new connection and ends idle ones.
  const dbCpu = () => new Map((dbPid === undefined ? [] : tree(dbPid)).map((pid) => [pid, cpuMs(pid)]));
  const dbBefore = dbCpu();
  const sample = () => ({
    web: cpuMs(process.pid),
    workers: workerPids.reduce((sum, pid) => sum + cpuMs(pid), 0),
    db: 0,
    idle: idlePids.reduce((sum, pid) => sum + cpuMs(pid), 0),
  });
  const before = sample();
  const start = performance.now();
  let issued = 0, refused = 0;
  const callers = Array.from({ length: Math.min(INFLIGHT, jobs) }, async () => {
    while (issued < jobs) {
      const n = issued++;
      const outcome = await callAsClient(target, tool, n, () => refused++);
      if (outcome.kind !== "promise") throw new Error(`${tool} answered ${JSON.stringify(outcome).slice(0, 300)}`);
    }
  });
  let failure: unknown;
  const calls = Promise.all(callers).catch((error) => failure = error);
  let done = 0, reads = 0;
  while (done < jobs && failure === undefined) {
    const id = target.ids[first + done];
    if (id === undefined) {
      await sleep(READ_MS);
      continue;
    }
    reads++;
    const entry = await store.get(id);
    if (ended(entry)) {
      checkResult(entry, id);
      done++;
    } else await sleep(READ_MS);
  }
  const end = performance.now();
  await calls;
  if (failure !== undefined) throw failure;
  const after = sample();
  // A backend started meanwhile counts from its start; one that ended meanwhile is not counted (undercounts).
  for (const [pid, ms] of dbCpu()) after.db += ms - (dbBefore.get(pid) ?? 0);
  return {
    refused,
    reads: reads / jobs,
    jps: jobs / ((end - start) / 1000),
    cpu: {
      web: (after.web - before.web) / jobs,
      workers: (after.workers - before.workers) / jobs,
      db: (after.db - before.db) / jobs,
      idle: (after.idle - before.idle) / jobs,
    },
  };
}

/** One `io0` call: ms to its promise answer, then ms from that answer to its result in the store. */
async function oneJob(target: Target, store: ResultStore): Promise<{ call: number; first: number }> {
  const known = target.ids.length;
  const start = performance.now();
  const outcome = await target.server.call("io0", { n: known });
  const answered = performance.now();
  if (outcome.kind !== "promise") throw new Error(`io0 answered ${JSON.stringify(outcome).slice(0, 300)}`);
  const id = target.ids[known];
  if (id === undefined || target.ids.length !== known + 1) throw new Error("the call's store entry was not seen");
  for (;;) {
    const entry = await store.get(id);
    if (ended(entry)) {
      checkResult(entry, id);
      return { call: answered - start, first: performance.now() - answered };
    }
    if (POLL_MS > 0) await sleep(POLL_MS);
  }
}

function percentiles(values: number[]): { p50: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: median(sorted), p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] };
}

/** BullMQ alone on the backend, in this process: `one()` adds a job and resolves with ms until its handler starts. */
async function handOvers(backend: Backend, url: string, name: string) {
  const { Queue, Worker, connection } = bullmqOn(backend, url);
  const queue = new Queue(name, { connection });
  let started = () => {};
  const worker = new Worker(name, () => Promise.resolve(started()), { connection, concurrency: 8 });
  const opts = { removeOnComplete: true, removeOnFail: true };
  const one = async () => {
    const begun = new Promise<number>((resolve) => started = () => resolve(performance.now()));
    const at = performance.now();
    await queue.add("job", { at }, opts);
    return (await begun) - at;
  };
  await one(); // its schema, scripts and connections
  return { one, close: async () => void await Promise.all([worker.close(), queue.close()]) };
}

/** The resume row: `RESUME_JOBS` jobs of 999 steps and a sleep, one at a time, on a server and worker of this process. */
async function resumes(
  backend: Backend,
  url: string,
  queue: string,
  dbPid: number | undefined,
): Promise<QueueRunResult["resume"]> {
  const journals = { loads: 0, appends: 0 };
  const made = await queueBenchServer({ backend, url, queue, journals });
  const worker = runWorker(made.server);
  const rows: { loads: number; appends: number; ms: number; web: number; db: number }[] = [];
  const dbCpu = () => new Map((dbPid === undefined ? [] : tree(dbPid)).map((pid) => [pid, cpuMs(pid)]));
  try {
    for (let i = 0; i <= RESUME_JOBS; i++) { // the first warms up, and is not counted
      journals.loads = journals.appends = 0;
      const dbBefore = dbCpu();
      const web = cpuMs(process.pid);
      const start = performance.now();
      const outcome = await made.server.call("steps", { n: i });
      if (outcome.kind !== "promise") throw new Error(`steps answered ${JSON.stringify(outcome).slice(0, 300)}`);
      for (;;) {
        const redeemed = await made.server.call("redeem", { promise: outcome.token });
        if (redeemed.kind === "answer") break;
        if (redeemed.kind !== "promise") throw new Error(`redeem answered ${JSON.stringify(redeemed).slice(0, 300)}`);
        await sleep(5);
      }
      const ms = performance.now() - start;
      let db = 0;
      for (const [pid, used] of dbCpu()) db += used - (dbBefore.get(pid) ?? 0);
      if (i > 0) rows.push({ loads: journals.loads, appends: journals.appends, ms, web: cpuMs(process.pid) - web, db });
    }
  } finally {
    await worker.close();
    await made.close();
  }
  const mid = (key: keyof (typeof rows)[number]) => median(rows.map((r) => r[key]));
  return {
    jobs: rows.length,
    loads: mid("loads"),
    appends: mid("appends"),
    ms: mid("ms"),
    cpu: { web: mid("web"), db: mid("db") },
  };
}

async function runBackend(backend: Backend): Promise<QueueRunResult> {
  const url = URLS[backend];
  if (!url) throw new Error(`no --${backend} URL`);
  const shared = await benchStore(backend, url);
  const tag = `${runtime().name}-${Date.now().toString(36)}`;
  const targets: Target[] = [];
  const make = async (name: string, workers: number, queue?: string, inStore = false) => {
    const ids: string[] = [];
    const recorded = recording(shared.store, (id) => ids.push(id));
    // The store of this SDK beneath, and its journals: the server keeps its queue in it and takes its jobs itself.
    const { store: beneath, journalStore } = shared.store;
    const made = await queueBenchServer({
      backend,
      url,
      queue,
      store: inStore ? { ...recorded, store: beneath, journalStore } : recorded,
      keepCompletedMs: KEEP_COMPLETED_MS ? Number(KEEP_COMPLETED_MS) : undefined,
    });
    targets.push({ name, workers, server: made.server, close: made.close, ids, children: [] });
  };
  // A result store of one's own (no shared store beneath): no queue, the work runs where its call was taken.
  await make("in process (no queue)", 0);
  await make("queue in the store", 0, undefined, true); // the default over a store of this SDK (issue 100)
  for (const n of WORKERS) await make(`BullMQ, ${n} worker${n === 1 ? "" : "s"}`, n, `bench-${tag}-${n}`);
  try {
    // Each queue's first add (on PostgreSQL, the one that makes BullMQ's schema) before any worker starts.
    for (const target of targets) if (target.workers > 0) await target.server.call("io0", { n: -1 });
    const started = performance.now();
    for (const target of targets) {
      if (target.workers === 0) continue;
      const queue = `bench-${tag}-${target.workers}`;
      target.children.push(
        ...await Promise.all(Array.from({ length: target.workers }, () => startWorker(backend, queue))),
      );
    }
    console.error(
      `  ${backend}: ${targets.reduce((n, t) => n + t.workers, 0)} workers started in ${
        ((performance.now() - started) / 1000).toFixed(1)
      } s`,
    );
    const dbPid = await databasePid(backend, url);
    for (const target of targets) {
      for (const tool of TOOLS) await throughput(target, shared.store, tool, 100, undefined, []); // warm-up
    }
    const measured = new Map<string, QueueRunResult["throughput"][number]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const tool of TOOLS) {
        for (let i = 0; i < targets.length; i++) {
          const target = targets[(i + round) % targets.length];
          const key = `${target.name}/${tool}`;
          const row = measured.get(key) ??
            measured.set(key, { target: target.name, tool, jps: [], cpu: [], refused: 0, reads: [] }).get(key)!;
          const idle = targets.filter((t) => t !== target).flatMap((t) => t.children.map((w) => w.child.pid!));
          const { jps, cpu, refused, reads } = await throughput(target, shared.store, tool, JOBS, dbPid, idle);
          row.refused += refused;
          row.reads!.push(reads);
          row.jps.push(jps);
          row.cpu.push(cpu);
        }
      }
      console.error(`  ${backend}: throughput round ${round + 1}/${ROUNDS} done`);
    }
    const times = new Map(targets.map((t) => [t.name, { call: [] as number[], first: [] as number[] }]));
    const raw = await handOvers(backend, url, `bench-${tag}-raw`);
    const handOver: number[] = [];
    try {
      for (let i = 0; i < LATENCY_JOBS; i++) {
        for (let j = 0; j < targets.length; j++) {
          const target = targets[(i + j) % targets.length];
          const { call, first } = await oneJob(target, shared.store);
          times.get(target.name)!.call.push(call);
          times.get(target.name)!.first.push(first);
        }
        handOver.push(await raw.one());
      }
    } finally {
      await raw.close();
    }
    console.error(`  ${backend}: latency done`);
    const resume = RESUME_JOBS > 0 ? await resumes(backend, url, `bench-${tag}-resume`, dbPid) : undefined;
    const { name, version } = runtime();
    return {
      runtime: name,
      version,
      backend,
      jobs: JOBS,
      inflight: INFLIGHT,
      rounds: ROUNDS,
      latencyJobs: LATENCY_JOBS,
      throughput: [...measured.values()],
      latency: targets.map((t) => ({
        target: t.name,
        call: percentiles(times.get(t.name)!.call),
        first: percentiles(times.get(t.name)!.first),
      })),
      handOver: percentiles(handOver),
      resume,
    };
  } finally {
    await Promise.all(targets.flatMap((t) => t.children.map(stopWorker)));
    for (const target of targets) await target.close();
    await shared.close();
  }
}

function print(result: QueueRunResult): void {
  console.log(
    `\n${result.backend} — ${result.runtime} ${result.version}: ${result.jobs} jobs, ${result.inflight} calls at once`,
  );
  for (const row of result.throughput) {
    const cpu = (key: keyof Cpu) => median(row.cpu.map((c) => c[key])).toFixed(3);
    console.log(
      `  ${row.tool.padEnd(4)} ${row.target.padEnd(22)} ${median(row.jps).toFixed(0).padStart(6)} jobs/s  (${
        row.jps.map((j) => j.toFixed(0)).join(", ")
      })  CPU ms/job web ${cpu("web")} workers ${cpu("workers")} db ${cpu("db")} idle workers ${cpu("idle")}${
        row.refused ? ` · ${row.refused} refused, sent again` : ""
      }`,
    );
  }
  for (const row of result.latency) {
    console.log(
      `  io0  ${row.target.padEnd(22)} call p50 ${row.call.p50.toFixed(2)} p99 ${row.call.p99.toFixed(2)} ms · ` +
        `first result p50 ${row.first.p50.toFixed(2)} p99 ${row.first.p99.toFixed(2)} ms`,
    );
  }
  if (result.handOver) {
    console.log(`  BullMQ's hand-over p50 ${result.handOver.p50.toFixed(2)} p99 ${result.handOver.p99.toFixed(2)} ms`);
  }
  const r = result.resume;
  if (r) {
    console.log(
      `  steps (999 and a sleep): ${r.loads} journal loads, ${r.appends} appends, ${r.ms.toFixed(0)} ms, CPU ms ` +
        `${r.cpu.web.toFixed(0)} + ${r.cpu.db.toFixed(0)} per job (median of ${r.jobs})`,
    );
  }
}

for (const backend of BACKENDS) {
  let result: QueueRunResult;
  try {
    result = await runBackend(backend);
  } catch (error) {
    console.error(`! ${backend}: ${(error as Error).stack ?? error}`);
    if (JSON_OUTPUT) console.log(`BENCH_QUEUE ${JSON.stringify({ backend, error: String(error).slice(0, 500) })}`);
    continue;
  }
  if (JSON_OUTPUT) console.log(`BENCH_QUEUE ${JSON.stringify(result)}`);
  else print(result);
}
process.exit(0); // open handles (BullMQ's, pg's) must not hold the run
