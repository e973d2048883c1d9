/**
 * The round trips of a queued job, counted (issue 85, "Cost"): per job, the commands Redis ran (`INFO commandstats`,
 * with Redis's own µs) or the statements `pg` sent, and this process's CPU, in three phases one after the other: the
 * web side adds `--jobs` calls (no worker running), a worker drains them, the results are read once each. Ours
 * (`createServer({ queue })`, `runWorker()`) beside the floor (BullMQ, one result write, one read), in one process,
 * so CPU time counts what each side's code costs with no other process in it; the database's is Redis's µs.
 *
 *   bun bench/queue-trips.ts [--jobs 500] [--backends redis,postgres] [--what ours,floor] [--repeat 2]
 *                            [--keep-completed-ms 0|default]
 *
 * @module
 */
import process from "node:process";
import { Redis } from "ioredis";
import pg from "pg";
import { runWorker } from "../mod.ts";
import { POSTGRES_MISSING, startPostgres } from "../tests/helpers/postgres-server.ts";
import { REDIS_MISSING, startRedis } from "../tests/helpers/redis-server.ts";
import { benchStore, ended, queueBenchServer } from "./queue-server.ts";
import { floorResult, floorStore } from "./queue-floor-store.ts";
import { bullmqOn, raiseMaxConnections } from "./queue-processes.ts";
import type { ResultStore } from "../mod.ts";
import { flag } from "./exec.ts";

const JOBS = Number(flag("jobs", "500"));
const BACKENDS = flag("backends", "redis,postgres").split(",");
/** Which to count: ours, the floor, or both (one alone for a profile, `bun --cpu-prof`). */
const WHAT = flag("what", "ours,floor").split(",");
/** How many times each is counted in turn (the first runs cold: JIT compilation on the runtime's threads). */
const REPEAT = Number(flag("repeat", "2"));
/** Ours with `bullmqQueue`'s `keepCompletedMs` (its default, an hour, when "default"); the floor keeps none. */
const KEEP = flag("keep-completed-ms", "0");
const KEEP_MS = KEEP === "default" ? undefined : Number(KEEP);

/** What one phase cost: commands or statements (with Redis's µs for each), and this process's CPU µs. */
interface Phase {
  readonly trips: Map<string, { n: number; us: number }>;
  readonly dbUs: number;
  readonly cpuUs: number;
  readonly sysUs: number;
}

/** Statements `pg` sent in this process, by their first words. */
const statements = new Map<string, number>();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text?: string };
  const text = typeof first === "string" ? first : first?.text ?? "?";
  const key = text.replace(/\s+/g, " ").slice(0, 60);
  statements.set(key, (statements.get(key) ?? 0) + 1);
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

async function commandStats(admin: Redis): Promise<Map<string, { calls: number; us: number }>> {
  const info = await admin.info("commandstats");
  const stats = new Map<string, { calls: number; us: number }>();
  for (const m of info.matchAll(/cmdstat_(\S+?):calls=(\d+),usec=(\d+)/g)) {
    stats.set(m[1], { calls: Number(m[2]), us: Number(m[3]) });
  }
  return stats;
}

/** Runs `body` and counts what it cost. */
async function phase(admin: Redis | undefined, body: () => Promise<void>): Promise<Phase> {
  const before = admin ? await commandStats(admin) : undefined;
  statements.clear();
  const cpu = process.cpuUsage();
  await body();
  const used = process.cpuUsage(cpu);
  const trips = new Map<string, { n: number; us: number }>();
  let dbUs = 0;
  if (admin) {
    for (const [name, { calls, us }] of await commandStats(admin)) {
      const was = before!.get(name) ?? { calls: 0, us: 0 };
      if (name === "info" || calls === was.calls) continue;
      trips.set(name, { n: calls - was.calls, us: us - was.us });
      dbUs += us - was.us;
    }
  } else for (const [text, n] of statements) trips.set(text, { n, us: 0 });
  return { trips, dbUs, cpuUs: used.user + used.system, sysUs: used.system };
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!await check()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25)); // the bench's own reads: few
  }
}

/** Ours: the web side's calls, a worker's run, the reads. */
async function ours(backend: "redis" | "postgres", url: string, admin?: Redis): Promise<Phase[]> {
  const queue = `trips-${Date.now().toString(36)}`;
  const ids: string[] = [];
  const shared = await benchStore(backend, url);
  const store: ResultStore = {
    ...shared.store,
    get: (id) => shared.store.get(id),
    delete: (id) => shared.store.delete(id),
    set(id, entry, ttlMs) {
      if (entry.status === "working" && !id.includes(":")) ids.push(id);
      return shared.store.set(id, entry, ttlMs);
    },
  };
  const web = await queueBenchServer({ backend, url, queue, store, keepCompletedMs: KEEP_MS });
  // The worker's store tells the jobs that ended (their final write), so the bench reads nothing to wait for them.
  const own = await benchStore(backend, url);
  let finished = 0;
  const counting: ResultStore = {
    ...own.store,
    get: (id) => own.store.get(id),
    delete: (id) => own.store.delete(id),
    async set(id, entry, ttlMs) {
      const written = await own.store.set(id, entry, ttlMs);
      if (ended(entry) && !id.includes(":")) finished++;
      return written;
    },
  };
  const worker = await queueBenchServer({ backend, url, queue, store: counting, keepCompletedMs: KEEP_MS });
  await web.server.call("io0", { n: -1 }); // warm: the queue's connection, BullMQ's schema and scripts
  const warm = runWorker(worker.server);
  await until(() => Promise.resolve(finished === 1), "the warm-up job");
  await warm.close();
  ids.length = 0;
  finished = 0;
  const added = await phase(admin, async () => {
    for (let i = 0; i < JOBS; i += 32) {
      await Promise.all(Array.from({ length: Math.min(32, JOBS - i) }, (_, j) => web.server.call("io0", { n: i + j })));
    }
  });
  let running: ReturnType<typeof runWorker> | undefined;
  const ran = await phase(admin, async () => {
    running = runWorker(worker.server);
    await until(() => Promise.resolve(finished === JOBS), "the last job");
    await running.close();
  });
  const read = await phase(admin, async () => {
    for (const id of ids) if (!ended(await shared.store.get(id))) throw new Error(`job ${id} not ended`);
  });
  await web.close();
  await worker.close();
  await own.close();
  await shared.close();
  return [added, ran, read];
}

/** The floor: BullMQ, the worker writing each result once, each read once. */
async function floor(backend: "redis" | "postgres", url: string, admin?: Redis): Promise<Phase[]> {
  const { Queue, Worker, connection } = bullmqOn(backend, url);
  const name = `floor-${Date.now().toString(36)}`;
  const store = floorStore(backend, url);
  await store.prepare();
  const queue = new Queue(name, { connection });
  const opts = { removeOnComplete: true, removeOnFail: true };
  await queue.add("job", { i: -1 }, opts);
  const take = () =>
    new Worker(name, async (job) => {
      await store.write(`${name}:${job.data.i}`, floorResult(job.data.i));
    }, { connection, concurrency: 8 });
  const warm = take();
  await until(async () => (await store.read(`${name}:-1`)) !== undefined, "the warm-up job");
  await warm.close();
  const added = await phase(admin, async () => {
    for (let i = 0; i < JOBS; i += 32) {
      await Promise.all(Array.from({ length: Math.min(32, JOBS - i) }, (_, j) => queue.add("job", { i: i + j }, opts)));
    }
  });
  const ran = await phase(admin, async () => {
    const worker = take();
    await until(async () => (await store.read(`${name}:${JOBS - 1}`)) !== undefined, "the last job");
    await worker.close();
  });
  const read = await phase(admin, async () => {
    for (let i = 0; i < JOBS; i++) if ((await store.read(`${name}:${i}`)) === undefined) throw new Error("no result");
  });
  await queue.close();
  await store.close();
  return [added, ran, read];
}

function print(backend: string, what: string, phases: Phase[]): void {
  const names = ["web (add)", "worker (run)", "reader"];
  phases.forEach((p, i) => {
    const trips = [...p.trips].sort((a, b) => b[1].n - a[1].n).map(([k, { n, us }]) =>
      `${(n / JOBS).toFixed(2)} ${k}${us ? ` (${(us / n).toFixed(1)} µs)` : ""}`
    );
    const total = [...p.trips.values()].reduce((a, b) => a + b.n, 0) / JOBS;
    console.log(
      `${backend} ${what.padEnd(5)} ${names[i].padEnd(12)} CPU ${(p.cpuUs / JOBS).toFixed(0).padStart(4)} µs/job ` +
        `(system ${(p.sysUs / JOBS).toFixed(0)})` +
        (p.dbUs ? ` · Redis ${(p.dbUs / JOBS).toFixed(0)} µs/job` : "") +
        ` · ${total.toFixed(2)} ${p.dbUs ? "commands (in scripts too)" : "statements"}/job: ${trips.join(", ")}`,
    );
  });
}

for (const backend of BACKENDS as ("redis" | "postgres")[]) {
  if (backend === "redis") {
    if (REDIS_MISSING) continue;
    const redis = await startRedis();
    const admin = new Redis(redis.url);
    try {
      for (let i = 0; i < REPEAT; i++) {
        if (WHAT.includes("ours")) print("redis", "ours", await ours("redis", redis.url, admin));
        if (WHAT.includes("floor")) print("redis", "floor", await floor("redis", redis.url, admin));
      }
    } finally {
      admin.disconnect();
      await redis.stop();
    }
  } else {
    if (POSTGRES_MISSING) continue;
    const postgres = await startPostgres();
    try {
      await raiseMaxConnections(postgres);
      for (let i = 0; i < REPEAT; i++) {
        if (WHAT.includes("ours")) print("postgres", "ours", await ours("postgres", postgres.url));
        if (WHAT.includes("floor")) print("postgres", "floor", await floor("postgres", postgres.url));
      }
    } finally {
      await postgres.remove();
    }
  }
}
process.exit(0);
