/**
 * Inline work (`ctx.defer(fn)`) on a server with a queue runs in process, holding a lease in the shared store, and
 * never meets the queue: two web instances and a `mcplite worker`, each a process of its own, on a real redis-server
 * and a real PostgreSQL (BullMQ's Postgres backend, the results in `postgresResultStore`). Instance A takes an inline
 * call and is `kill -9`'d while its work runs; a redeem on instance B answers "not done yet" while A holds the lease,
 * then "stopped" once the lease has lapsed, each read bounded; the worker, which runs a declared call meanwhile,
 * never runs the inline work. A cancellation on B of inline work running on A ends it.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { queueBackends } from "../helpers/queue-backends.ts";
import {
  gate,
  killQueueProcesses,
  logged,
  type QueueBackend,
  startWeb,
  startWorkerOf,
} from "../helpers/queue-processes.ts";
import { liteCall, promiseTokenOf, redeemedEnd, webBackends } from "../helpers/web-calls.ts";

// The processes first: they go before their backends stop.
after(killQueueProcesses);
const servers = queueBackends("inline work on a queue server");

/** The lease of the web instances' in-process jobs, in ms. */
const LEASE_MS = "500";
/** How long the test waits for the lapsed lease's answer: a bound, not a measure. */
const LAPSE_WAIT_MS = 30_000;

const BACKENDS = webBackends(servers);

describe("inline work on a server with a queue: in process, its instance killed", () => {
  for (const { name, missing, variable } of BACKENDS) {
    it(`answers 'stopped' on another instance, never hangs, never a worker run: ${name}`, async (t) => {
      const skip = missing();
      if (skip) return void t.skip(skip);
      const url = variable === "REDIS_URL" ? servers.redis!.url : servers.postgres!.url;
      const backend: QueueBackend = { url, variable, queue: `inline-${variable}`, lockMs: 5_000 };
      const shut = gate(); // never opened: the inline work runs until its instance dies
      try {
        const [a, b, worker] = await Promise.all([
          startWeb(backend, { LEASE_MS }),
          startWeb(backend, { LEASE_MS }),
          startWorkerOf({}, backend),
        ]);
        const token = promiseTokenOf(await liteCall(a, "inline", { n: 1, ms: 120_000, gate: shut.path }));
        await logged([a], /^job 1 started$/gm, 1); // the work runs on A, in process
        assert.equal((await liteCall(b, "redeem", { promise: token })).result?._meta?.response_type, "promise");
        // A cancellation on B reaches inline work on A (through the store: nothing to take out of the queue).
        const cancelled = promiseTokenOf(await liteCall(a, "inline", { n: 3, ms: 120_000, gate: shut.path }));
        await logged([a], /^job 3 started$/gm, 1);
        assert.match(JSON.stringify(await liteCall(b, "redeem", { promise: cancelled, cancel: true })), /"cancelled"/);
        assert.match(JSON.stringify(await redeemedEnd(a, cancelled, LAPSE_WAIT_MS)), /cancelled/);
        a.kill("SIGKILL");
        await a.exited;
        const stopped = await redeemedEnd(b, token, LAPSE_WAIT_MS);
        assert.equal(stopped.result?.isError, true, JSON.stringify(stopped));
        assert.match(stopped.result!.content[0].text, /instance running this job stopped before it finished/);
        // The worker is alive and takes jobs: a declared call runs there, the inline work never did.
        const declared = await redeemedEnd(
          b,
          promiseTokenOf(await liteCall(b, "fragile", { n: 2, ms: 10 })),
          LAPSE_WAIT_MS,
        );
        assert.deepEqual(declared.result?.structuredContent, { n: 2, pid: worker.pid }, JSON.stringify(declared));
        assert.doesNotMatch(worker.log(), /^job 1 started$/m);
        // Read again, the same end: kept (first writer wins), not found again.
        assert.deepEqual((await redeemedEnd(b, token, LAPSE_WAIT_MS)).result?.content, stopped.result?.content);
      } finally {
        await killQueueProcesses();
      }
    });
  }
});
