/**
 * The queue's backend broken under queued jobs: one web instance and two `mcplite worker` processes on a real
 * redis-server (with an append-only file fsynced on every write, as a production queue runs) or a real PostgreSQL
 * (BullMQ's Postgres backend, the results in `postgresResultStore`), the backend killed (`kill -9`) or stopped (Redis
 * SIGTERM, PostgreSQL's fast shutdown) while jobs run and others wait, then started again on the same port and data.
 * Meanwhile a new call is answered "send again later", a redeem "not done yet", and no process dies; afterwards every
 * accepted call gets its own result through our client (those done before the outage, finished while it lasted,
 * running across it, without `retry` too, and waiting in the queue), BullMQ holds no job, failed or not, and the same
 * workers take new jobs.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createClient } from "../../src/client/mod.ts";
import type { CallHandle } from "../../src/client/mod.ts";
import { countsUntil, openCounts } from "../helpers/bullmq-counts.ts";
import { POSTGRES_MISSING, startPostgres } from "../helpers/postgres-server.ts";
import {
  type Gate,
  gate,
  killQueueProcesses,
  logged,
  type QueueBackend,
  type QueueProcess,
  started,
  startWeb,
  startWorker,
} from "../helpers/queue-processes.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../helpers/redis-server.ts";
import { toolsCall } from "../helpers/request.ts";

/**
 * BullMQ's lock on a running job: longer than the outage (which lasts until six running jobs finish, then the
 * restart), so a live worker's lock outlives it and BullMQ hands no running job to the other worker. The queue's lock
 * is the job's only lease: an outage longer than it makes BullMQ deliver the job again as its next start, which a
 * job without `retry` ends as stopped (tests/core/queued-jobs.test.ts).
 */
const LOCK_MS = 10_000;
/** The most a gated job waits at its gate (`ms`): a bound for a stuck test, not a measure. */
const GATED_MS = 60_000;
/**
 * The calls, over two workers running four jobs at most each: two done before the outage, six that finish while it
 * lasts (at the gate `down`, opened once the backend is down), two of a tool without `retry` that run across the
 * restart (at the gate `back`, opened once it is back: a live worker's job, never "stopped"), and two waiting in the
 * queue when the backend goes (kept by its persistence).
 */
function calls(gates: { down: Gate; back: Gate }) {
  return [
    ...[0, 1].map((n) => ({ tool: "slow", n, ms: 100 })),
    ...[2, 3, 4, 5, 6, 7].map((n) => ({ tool: "slow", n, ms: GATED_MS, gate: gates.down.path })),
    ...[8, 9].map((n) => ({ tool: "fragile", n, ms: GATED_MS, gate: gates.back.path })),
    ...[10, 11].map((n) => ({ tool: "slow", n, ms: 100 })),
  ];
}
const CALLS = 12;
const RUNNING = 10;

/** A backend the test runs, breaks and restarts. */
interface Backend {
  readonly url: string;
  readonly variable: QueueBackend["variable"];
  /** Kills it (`kill -9`) or stops it as its service manager would. */
  break(how: "kill" | "stop"): Promise<void>;
  /** Starts it again on the same port and data. */
  restart(): Promise<void>;
  /** Stops it and removes its data. */
  remove(): Promise<void>;
}

/** Redis as a production queue runs it: AOF, `appendfsync always`, on a directory of its own. */
async function redisBackend(): Promise<Backend> {
  const dir = mkdtempSync(join(tmpdir(), "mcplite-redis-"));
  let redis: RedisServer = await startRedis({ persistIn: dir });
  return {
    url: redis.url,
    variable: "REDIS_URL",
    break: (how) => how === "kill" ? redis.kill() : redis.stop(),
    async restart() {
      redis = await startRedis({ port: redis.port, persistIn: dir });
    },
    async remove() {
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** PostgreSQL on a cluster of its own; a stop is a fast shutdown (`pg_ctl stop -m fast`). */
async function postgresBackend(): Promise<Backend> {
  const server = await startPostgres();
  return {
    url: server.url,
    variable: "DATABASE_URL",
    break: (how) => how === "kill" ? server.kill() : server.stop(),
    restart: () => server.restart(),
    remove: () => server.remove(),
  };
}

const BACKENDS = [
  { name: "redis-server (AOF)", missing: REDIS_MISSING, start: redisBackend },
  { name: "PostgreSQL", missing: POSTGRES_MISSING, start: postgresBackend },
] as const;
for (const { name, missing } of BACKENDS) {
  if (missing) console.error(`bullmq backend faults on ${name}: skipped: ${missing}`);
}

const BREAKS = [
  { how: "kill", says: "killed (kill -9)" },
  { how: "stop", says: "stopped (SIGTERM; PostgreSQL's fast shutdown)" },
] as const;

after(killQueueProcesses);

/** The processes that exited, by name: none may while the backend is down or after. */
function exits(processes: Record<string, QueueProcess>): () => string[] {
  const exited: string[] = [];
  for (const [name, process] of Object.entries(processes)) {
    process.exited.then((code) => exited.push(`${name} exited with ${code}:\n${process.log()}`));
  }
  return () => exited;
}

/** An MCP-lite `tools/call` on the web instance, as it answers it on the wire. */
async function lite(url: string, name: string, args: unknown) {
  const response = await fetch(`${url}/mcp-lite/v1/calltools`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(toolsCall(name, args)),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() };
}

/** A retryable refusal: 503 with `Retry-After`, `reason: "unavailable"` and `retryAfterMs`; never a tool's failure. */
function assertRetryable(answer: Awaited<ReturnType<typeof lite>>, what: string): void {
  const told = `${what}: ${JSON.stringify(answer)}`;
  assert.equal(answer.status, 503, told);
  assert.ok(Number(answer.retryAfter) >= 1, told);
  assert.equal(answer.body.error?.data?.reason, "unavailable", told);
  assert.equal(typeof answer.body.error.data.retryAfterMs, "number", told);
}

/** A redeem while the backend is down: "not done yet" (the same promise) or retryable; never failed or refused. */
function assertNotDoneYet(answer: Awaited<ReturnType<typeof lite>>, what: string): void {
  const told = `${what}: ${JSON.stringify(answer)}`;
  assert.doesNotMatch(JSON.stringify(answer.body), /invalid|expired|stopped before/i, told);
  if (answer.body.error !== undefined) return assertRetryable(answer, what);
  assert.equal(answer.body.result?._meta?.response_type, "promise", told);
  assert.notEqual(answer.body.result?.isError, true, told);
}

for (const { name: on, missing, start } of BACKENDS) {
  describe(`queued jobs across an outage of the queue's backend (BullMQ, ${on})`, { skip: missing }, () => {
    // One backend for the file's breaks, each test on a queue of its own: each leaves it running again.
    let shared: Backend | undefined;
    before(async () => void (shared = await start()));
    after(async () => await shared?.remove());

    for (const { how, says } of BREAKS) {
      it(`${says} mid-run, then restarted: every call gets its own result, every answer meanwhile retryable`, async () => {
        const backend = shared!;
        const deployment: QueueBackend = {
          url: backend.url,
          variable: backend.variable,
          queue: `outage-${crypto.randomUUID()}`,
          lockMs: LOCK_MS,
        };
        const concurrency = ["--concurrency", "4"];
        const [web, a, b] = await Promise.all([
          startWeb(deployment),
          startWorker(deployment, ...concurrency),
          startWorker(deployment, ...concurrency),
        ]);
        const exited = exits({ web, "worker a": a, "worker b": b });
        const client = createClient(`${web.url}/mcp-lite/v1`);
        let counts: ReturnType<typeof openCounts> | undefined;
        let broken = false;
        const ownResult = async (handle: CallHandle, n: number) => {
          const value = await client.resume(handle, { timeoutMs: 60_000 }) as { n: number; pid: number };
          assert.equal(value.n, n, JSON.stringify(value));
          assert.ok(value.pid === a.pid || value.pid === b.pid, JSON.stringify(value));
        };
        try {
          const gates = { down: gate(), back: gate() };
          const handles: CallHandle[] = [];
          for (const { tool, ...args } of calls(gates)) {
            const handle = await client.call(tool, args, { wait: false }) as CallHandle;
            assert.equal(handle.kind, "promise", JSON.stringify(handle));
            handles.push(handle);
          }
          // BullMQ's counts, on a connection opened while the first jobs run (the calls made PostgreSQL's schema),
          // slow to open on a loaded machine.
          counts = openCounts(backend.url, deployment.queue);
          counts.catch(() => {}); // its failure is met where it is awaited, below
          // Calls 0 and 1 end (their results stored), 2 to 9 run on the workers, 10 and 11 wait: then the backend goes.
          await Promise.all([0, 1].map((n) => ownResult(handles[n], n)));
          await started([a, b], RUNNING);
          const bullmq = await counts;
          await bullmq.until((counted) => counted.waiting === CALLS - RUNNING, 30_000);
          await bullmq.close();
          broken = true;
          await backend.break(how);

          const down = await lite(web.url, "slow", { n: 99, ms: 1 });
          assertRetryable(down, "a new call while the backend is down");
          for (const n of [0, 2, 8]) {
            const token = (handles[n] as { token: string }).token;
            assertNotDoneYet(await lite(web.url, "redeem", { promise: token }), `call ${n}'s redeem while down`);
          }
          // Calls 2–7 finish while the backend is down: their workers hold the results until it is back.
          gates.down.open();
          await logged([a, b], /^job [2-7] finished$/gm, 6);
          assert.deepEqual(exited(), [], "no process died while the backend was down");
          await backend.restart();
          broken = false;
          gates.back.open(); // calls 8 and 9 ran across the restart

          await Promise.all(handles.map((handle, n) => ownResult(handle, n)));
          // BullMQ's view: no job left unfinished, none failed (a completed one is kept, and not counted here).
          await countsUntil(
            backend.url,
            deployment.queue,
            (counts) => Object.values(counts).every((c) => c === 0),
            60_000,
          );

          // The same workers take new jobs: eight calls, held at a gate, over two workers running four at most each.
          const more = [];
          const held = gate();
          for (let n = 100; n < 108; n++) {
            more.push(await client.call("slow", { n, ms: GATED_MS, gate: held.path }, { wait: false }) as CallHandle);
          }
          await Promise.all([logged([a], /^job 1\d\d started$/gm, 1), logged([b], /^job 1\d\d started$/gm, 1)]);
          held.open();
          await Promise.all(more.map((handle, i) => ownResult(handle, 100 + i)));
          assert.deepEqual(exited(), [], "no process died");
        } finally {
          await (await counts?.catch(() => undefined))?.close();
          await client.close();
          await killQueueProcesses();
          if (broken) await backend.restart(); // for the next test
        }
      });
    }
  });
}
