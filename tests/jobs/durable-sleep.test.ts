/**
 * `work.sleep()` on a queue is durable: the job goes back to BullMQ, delayed until its wake time, and holds no
 * worker slot meanwhile. One `mcplite worker` process with one slot (the runtime running the tests), on BullMQ over
 * a real redis-server and over a real PostgreSQL, the test process the web instance: a job sleeping 3 s, then a job
 * queued after it: the second ends first, and the first ends after its sleep.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { CallOutcome } from "../../mod.ts";
import { jobsServer } from "../helpers/jobs-server.ts";
import { killQueueProcesses, logged, type QueueBackend, startWorkerOf } from "../helpers/queue-processes.ts";
import { queueBackends } from "../helpers/queue-backends.ts";
import { redeemedWithin } from "../helpers/outcome.ts";
import { tokenOf } from "../helpers/instances.ts";

const LOCK_MS = 5_000;
/** The first job's durable sleep. */
const SLEEP_MS = 3_000;
/** How long a job may take to end, at most: a bound for a loaded machine, not a measure. */
const END_MS = 60_000;

const servers = queueBackends("a durable sleep");
after(killQueueProcesses);

/** The job's answer, once it ended: its structured content. */
async function ended(server: { call(name: string, args: unknown): Promise<CallOutcome> }, token: string) {
  const outcome = await redeemedWithin(server, token, END_MS);
  assert.equal(outcome.kind, "answer", JSON.stringify(outcome));
  return (outcome as { result: { structuredContent?: unknown } }).result.structuredContent as { n: number };
}

const BACKENDS = [
  { name: "redis-server", server: () => servers.redis, variable: "REDIS_URL" as const },
  { name: "PostgreSQL", server: () => servers.postgres, variable: "DATABASE_URL" as const },
];

for (const { name: on, server, variable } of BACKENDS) {
  describe(`a durable sleep on BullMQ (${on})`, () => {
    it("frees the slot: with one slot, a job queued after one sleeping 3 s ends first", {
      timeout: 120_000,
    }, async (t) => {
      const url = server()?.url;
      if (url === undefined || servers.redis === undefined) return t.skip(`needs redis-server and ${on}`);
      const queue = `sleep-${crypto.randomUUID()}`;
      const backend: QueueBackend = { url, variable, queue, lockMs: LOCK_MS };
      const counters = servers.redis.url;
      const web = jobsServer({ url, counters, queue, lockMs: LOCK_MS });
      try {
        const worker = await startWorkerOf(
          { module: "tests/helpers/jobs-server.ts", env: { COUNTER_URL: counters } },
          backend,
          "--concurrency",
          "1",
        );
        const sleeper = tokenOf(await web.server.call("nap", { n: 1, ms: SLEEP_MS }));
        await logged([worker], /^job 1 started$/gm, 1); // it holds the one slot, until its sleep gives it back
        const after = tokenOf(await web.server.call("nap", { n: 2, ms: 0 }));
        const order: number[] = [];
        await Promise.all([sleeper, after].map(async (token) => order.push((await ended(web.server, token)).n)));
        assert.deepEqual(order, [2, 1], worker.log());
        // On the worker itself: the second job ran to its end while the first slept (and not after it).
        const finished = [...worker.log().matchAll(/^job (\d) finished$/gm)].map((line) => Number(line[1]));
        assert.deepEqual(finished, [2, 1], worker.log());
      } finally {
        await web.close();
      }
    });
  });
}
