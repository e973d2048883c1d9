/**
 * A job waiting for a signal holds no worker: its worker `kill -9`'d during the wait changes nothing. On BullMQ over a
 * real redis-server and a real PostgreSQL, the test process the web instance, the workers `mcplite worker` processes
 * (tests/helpers/jobs-server.ts, tool `approval`: step a, a wait for `approved`, step b): the job waits on worker A,
 * A is killed, worker B starts, `server.signal()` resumes the job there, and each step's effect is counted once.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { counterKey, jobsServer } from "../helpers/jobs-server.ts";
import { killQueueProcesses, logged, type QueueBackend, startWorkerOf } from "../helpers/queue-processes.ts";
import { bullmqBackends, queueBackends, type WorkerBackend, workerBackends } from "../helpers/queue-backends.ts";
import { answered, redeemedWithin } from "../helpers/outcome.ts";
import type { CallOutcome } from "../../mod.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { readUntil } from "../helpers/wait.ts";

/** BullMQ's lock on a running job: a job its killed worker still held moves on within one to two of these. */
const LOCK_MS = 3_000;
/** How long the job may take to end once signalled, at most: a bound for a loaded machine, not a measure. */
const END_MS = 60_000;

const servers = queueBackends("a signal's wait, its worker killed");
after(killQueueProcesses);

/**
 * Calls `approval` on a web instance (this process), kills its worker A (`runtime`: a binary running the SDK's
 * TypeScript as is, default the tests' own) once the job waits in the queue, starts worker B, signals the job, and
 * asserts its answer and its steps' counts.
 */
async function killDuringWait(name: string, on: WorkerBackend, runtime?: string): Promise<void> {
  const queue = `approval-${crypto.randomUUID()}`;
  const deployment: QueueBackend = { url: on.url, variable: on.variable, queue, lockMs: LOCK_MS };
  const web = jobsServer({ url: on.url, counters: on.counters, queue, lockMs: LOCK_MS });
  try {
    const spec = { module: "tests/helpers/jobs-server.ts", runtime, env: { COUNTER_URL: on.counters } };
    const a = await startWorkerOf(spec, deployment, "--concurrency", "1");
    const called = await web.server.call("approval", { n: 1 });
    assert.equal(called.kind, "promise", JSON.stringify(called));
    const { token, entry } = called as Extract<CallOutcome, { kind: "promise" }>;
    await logged([a], /^job 1 waits$/gm, 1, /^mcplite: (error:|tool "\w+" failed)/m);
    // Back in the queue, delayed until its deadline: no worker holds it.
    const board = bullmqBackends(servers).find((each) => each.on === name)!.board(queue);
    try {
      await readUntil(() => board.getJobState(entry!), (state) => state === "delayed", "the job delayed in BullMQ", {
        timeoutMs: 20_000,
        everyMs: 20,
      });
    } finally {
      await board.close();
    }
    a.kill("SIGKILL");
    await a.exited;
    const b = await startWorkerOf(spec, deployment, "--concurrency", "1");
    assert.equal(await web.server.signal(entry!, "approved", { by: "ada" }), "taken");
    const answer = answered<{ n: number; a: number; b: number; by: string; pid: number; attempt: number }>(
      await redeemedWithin(web.server, token, END_MS),
    );
    // Its first start still: a wait is no start, and the worker killed held none of it.
    const expected = { n: 1, a: 1, b: 1, by: "ada", pid: true, attempt: 1 };
    assert.deepEqual({ ...answer, pid: answer.pid === b.pid }, expected);
    const count = async (what: string) => Number(await web.counters.get(counterKey(queue, 1, what)) ?? 0);
    assert.deepEqual([await count("a"), await count("b")], [1, 1]);
  } finally {
    await web.close();
  }
}

for (const { name, missing, backend, node22Skip } of workerBackends(servers)) {
  describe(`work.waitFor() on BullMQ (${name}): the worker kill -9'd during the wait`, () => {
    it("changes nothing: the signal resumes the job on another worker, each step's effect once", {
      timeout: 180_000,
    }, async (t) => {
      const reason = missing();
      if (reason) return t.skip(reason);
      await killDuringWait(name, backend());
    });

    it("the same with the workers on Node 22", { skip: node22Skip, timeout: 180_000 }, async (t) => {
      const reason = missing();
      if (reason) return t.skip(reason);
      const node = await node22();
      if (node === undefined) return t.skip(NODE22_MISSING);
      await killDuringWait(name, backend(), node);
    });
  });
}
