/**
 * One runtime's run of the events bench (driven by `bench/events.ts`, which starts redis-server and passes its
 * URL): this process emits and receives (a node:http receiver on 127.0.0.1 that answers 204 at once, echoes
 * challenges and verifies no signature: the sender's cost is measured, not a receiver's); the workers are child
 * processes on the same runtime (`bench/events-worker.ts`, `runWorker()`, concurrency 8 by default).
 *
 * Targets: deliveries in this process with the subscriptions in a memory store, the same with them in a Redis
 * store, and through a BullMQ queue on that Redis with 1 and 2 workers (a queue name each, all workers started up
 * front). Then:
 *
 * - latency: `--latency` emits of `bench.ping` (one subscription) one at a time, targets interleaved, after 20 of
 *   warm-up: from the call of `server.emit()` to its return, and to the POST's arrival at the receiver;
 * - throughput: `--emits` emits of `bench.tick` with `--lanes` subscriptions each (every one matched), `--inflight`
 *   emits at once, timed from the first emit to the last delivery's arrival; `--rounds` rounds, targets in an order
 *   that rotates with the round; deliveries per second, and any delivery that arrived twice (the same subscription
 *   and `webhook-id`) counted.
 *
 * Prints one `BENCH_EVENTS {…}` line.
 *
 * @module
 */
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import process from "node:process";
import { median, runtime } from "./harness.ts";
import { eventsBenchServer, subscribe } from "./events-server.ts";
import { cpuMs, databasePid } from "./queue-cpu.ts";
import { startChild, type Started } from "./queue-processes.ts";
import { flag } from "./exec.ts";

const REDIS = flag("redis", "");
const LATENCY = Number(flag("latency", "300"));
const EMITS = Number(flag("emits", "200"));
const LANES = Number(flag("lanes", "10"));
const INFLIGHT = Number(flag("inflight", "8"));
const ROUNDS = Number(flag("rounds", "3"));
const WORKERS = flag("workers", "1,2").split(",").map(Number);
const CONCURRENCY = flag("concurrency", "8");
const WAIT_MS = 180_000;

/** What one runtime's run measured. */
export interface EventsRunResult {
  runtime: string;
  version: string;
  emits: number;
  lanes: number;
  inflight: number;
  rounds: number;
  latencyEmits: number;
  concurrency: number;
  throughput: {
    target: string;
    dps: number[];
    duplicates: number;
    /** CPU ms per delivery, one per round: this process (emitter and receiver), the workers, redis-server. */
    cpu: { here: number; workers: number; redis: number }[];
  }[];
  latency: { target: string; emit: { p50: number; p99: number }; delivered: { p50: number; p99: number } }[];
}

// The receiver: arrivals by subscription and webhook-id, waiters by event id.
const arrivals = new Set<string>();
let received = 0;
let duplicates = 0;
const waiting = new Map<string, (at: number) => void>();
const http = createHttpServer((request, response) => {
  const chunks: Uint8Array[] = [];
  request.on("data", (chunk: Uint8Array) => chunks.push(chunk));
  request.on("end", () => {
    const at = performance.now();
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (body.type === "verification") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ challenge: body.challenge }));
      return;
    }
    const key = `${request.headers["x-mcp-subscription-id"]} ${request.headers["webhook-id"]}`;
    if (arrivals.has(key)) duplicates++;
    else {
      arrivals.add(key);
      received++;
    }
    waiting.get(body.eventId)?.(at);
    response.writeHead(204);
    response.end();
  });
});
await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
const receiver = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
const secret = `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;

interface Target {
  readonly name: string;
  readonly server: Awaited<ReturnType<typeof eventsBenchServer>>["server"];
  readonly close: () => Promise<void>;
  readonly workers: Started[];
}

const run = `${Date.now().toString(36)}`;
const targets: Target[] = [];
async function target(name: string, redis?: string, workers = 0): Promise<void> {
  const queue = workers === 0 ? undefined : `events-bench-${run}-${workers}`;
  const { server, close } = await eventsBenchServer({ redis, queue, receiver });
  const started: Started[] = [];
  for (let i = 0; i < workers; i++) {
    const env = { REDIS: redis!, QUEUE: queue!, RECEIVER: receiver, CONCURRENCY };
    started.push(await startChild("events-worker", env, "worker", "ignore", 90_000));
  }
  const path = `${receiver}/${targets.length}`;
  for (let i = 0; i < LANES; i++) await subscribe(server, "bench.tick", `lane-${i}`, `${path}/tick`, secret);
  await subscribe(server, "bench.ping", "one", `${path}/ping`, secret);
  targets.push({ name, server, close, workers: started });
}

await target("in process · memory store");
await target("in process · Redis store", REDIS);
for (const n of WORKERS) await target(`BullMQ on Redis · ${n} worker${n === 1 ? "" : "s"}`, REDIS, n);

/** Resolves with the arrival time of an event's delivery, within `WAIT_MS`. */
function arrival(eventId: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${eventId} not delivered in ${WAIT_MS} ms`)), WAIT_MS);
    waiting.set(eventId, (at) => {
      clearTimeout(timer);
      waiting.delete(eventId);
      resolve(at);
    });
  });
}

let seq = 0;
async function ping(t: Target): Promise<{ emit: number; delivered: number }> {
  const id = `ping-${run}-${seq++}`;
  const arrived = arrival(id);
  const start = performance.now();
  await t.server.emit("bench.ping", { seq }, { id });
  const emitted = performance.now();
  return { emit: emitted - start, delivered: (await arrived) - start };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
};

// Latency, targets interleaved.
for (const t of targets) for (let i = 0; i < 20; i++) await ping(t);
const samples = targets.map(() => ({ emit: [] as number[], delivered: [] as number[] }));
for (let i = 0; i < LATENCY; i++) {
  for (const [j, t] of targets.entries()) {
    const { emit, delivered } = await ping(t);
    samples[j].emit.push(emit);
    samples[j].delivered.push(delivered);
  }
}

// Throughput, the order of targets rotating with the round.
const rates = targets.map(() => [] as number[]);
const cpus = targets.map(() => [] as { here: number; workers: number; redis: number }[]);
const redisPid = await databasePid("redis", REDIS);
const cpuNow = (t: Target) => {
  const own = process.cpuUsage();
  return {
    here: (own.user + own.system) / 1000,
    workers: t.workers.reduce((sum, w) => sum + cpuMs(w.child.pid!), 0),
    redis: redisPid === undefined ? 0 : cpuMs(redisPid),
  };
};
const doubled = targets.map(() => 0);
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < targets.length; k++) {
    const j = (k + round) % targets.length;
    const t = targets[j];
    const want = received + EMITS * LANES;
    const before = duplicates;
    const start = performance.now();
    const cpuStart = cpuNow(t);
    let next = 0;
    const lanes = Array.from({ length: INFLIGHT }, async () => {
      while (next < EMITS) {
        const i = next++;
        await t.server.emit("bench.tick", { seq: i }, { id: `tick-${run}-${round}-${j}-${i}` });
      }
    });
    await Promise.all(lanes);
    const deadline = Date.now() + WAIT_MS;
    while (received < want) {
      if (Date.now() > deadline) throw new Error(`${t.name}: ${want - received} deliveries missing`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    rates[j].push((EMITS * LANES) / ((performance.now() - start) / 1000));
    const cpuEnd = cpuNow(t);
    const per = (key: "here" | "workers" | "redis") => (cpuEnd[key] - cpuStart[key]) / (EMITS * LANES);
    cpus[j].push({ here: per("here"), workers: per("workers"), redis: per("redis") });
    await new Promise((resolve) => setTimeout(resolve, 500)); // late duplicates land in this target's count
    doubled[j] += duplicates - before;
  }
}

const { name, version } = runtime();
const result: EventsRunResult = {
  runtime: name,
  version,
  emits: EMITS,
  lanes: LANES,
  inflight: INFLIGHT,
  rounds: ROUNDS,
  latencyEmits: LATENCY,
  concurrency: Number(CONCURRENCY),
  throughput: targets.map((t, j) => ({ target: t.name, dps: rates[j], duplicates: doubled[j], cpu: cpus[j] })),
  latency: targets.map((t, j) => ({
    target: t.name,
    emit: { p50: median(samples[j].emit), p99: percentile(samples[j].emit, 0.99) },
    delivered: { p50: median(samples[j].delivered), p99: percentile(samples[j].delivered, 0.99) },
  })),
};
console.log(`BENCH_EVENTS ${JSON.stringify(result)}`);

for (const t of targets) {
  for (const w of t.workers) {
    w.child.kill("SIGTERM");
    const timer = setTimeout(() => w.child.kill("SIGKILL"), 10_000);
    await w.exited;
    clearTimeout(timer);
  }
  await t.close();
}
http.close();
process.exit(0);
