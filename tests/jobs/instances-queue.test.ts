/**
 * Instances that share a store and no queue server keep their queue in the store (`queue: "store"`, the default), and
 * each takes its jobs (issue 100, item 2): two web instances of `tests/helpers/queued-server.ts`, each a process of its
 * own (`serve()`, on the tests' runtime and on Node 22), on a real redis-server and a real PostgreSQL. Instance A takes two declared calls, one with
 * `retry` (three starts), one without, and is `kill -9`'d while both run; instance B, started only then, takes them
 * from the queue as their claims lapse, before anyone reads them: the first runs there to its result, the second ends
 * stopped.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { queueBackends } from "../helpers/queue-backends.ts";
import { gate, killQueueProcesses, logged, type QueueBackend, startWeb } from "../helpers/queue-processes.ts";
import { liteCall, promiseTokenOf, redeemedEnd, webBackends } from "../helpers/web-calls.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";

// The processes first: they go before their backends stop.
after(killQueueProcesses);
const servers = queueBackends("instances sharing a store and no queue");

/** The lease of a claim on a job, in ms: a killed instance's jobs are taken again within about two, plus a poll. */
const LEASE_MS = "1000";
/** How long the test waits for an end: a bound for a loaded machine, not a measure. */
const END_WAIT_MS = 30_000;

const BACKENDS = webBackends(servers);

describe("instances keeping their queue in their store: the instance running two jobs is kill -9'd", () => {
  for (
    const [{ name, missing, variable }, onNode22] of BACKENDS.flatMap((each) => [[each, false], [each, true]] as const)
  ) {
    const title = `delivers them on the other instance before anyone reads: one finishes, one ends stopped: ${name}`;
    it(onNode22 ? `${title}, the instances on Node 22` : title, { skip: onNode22 && ONCE_PER_RUN }, async (t) => {
      const skip = missing();
      if (skip) return void t.skip(skip);
      const node = onNode22 ? await node22() : undefined;
      if (onNode22 && node === undefined) return void t.skip(NODE22_MISSING);
      const url = variable === "REDIS_URL" ? servers.redis!.url : servers.postgres!.url;
      const queue = `own-${crypto.randomUUID()}`; // the server's name: its instances' queue
      const backend: QueueBackend = { url, variable, queue, lockMs: 5_000, kind: "own" };
      const shut = gate();
      try {
        const a = await startWeb(backend, { LEASE_MS }, node);
        // Both wait at the gate on A, which took them from the queue it keeps in the store as it queued them.
        const retried = promiseTokenOf(await liteCall(a, "slow", { n: 1, ms: 120_000, gate: shut.path }));
        const once = promiseTokenOf(await liteCall(a, "fragile", { n: 2, ms: 120_000, gate: shut.path }));
        await logged([a], /^job [12] started$/gm, 2);
        // B starts only now (so that A took both): listening, it takes its share of the queue.
        const b = await startWeb(backend, { LEASE_MS }, node);
        a.kill("SIGKILL");
        await a.exited;
        shut.open();
        // Nobody reads: once A's claim has lapsed, B's taker delivers the retried job as its second start, to its end.
        await logged([b], /^job 1 finished$/gm, 1);
        assert.doesNotMatch(b.log(), /^job 2 started$/m, "the job without retry never runs again");
        const finished = await redeemedEnd(b, retried, END_WAIT_MS);
        assert.deepEqual(finished.result?.structuredContent, { n: 1, pid: b.pid }, JSON.stringify(finished));
        const stopped = await redeemedEnd(b, once, END_WAIT_MS);
        assert.equal(stopped.result?.isError, true, JSON.stringify(stopped));
        assert.match(stopped.result!.content[0].text, /instance running this job stopped before it finished/);
        // Read again, the same ends: kept (first writer wins).
        assert.deepEqual(
          (await redeemedEnd(b, retried, END_WAIT_MS)).result?.structuredContent,
          finished.result?.structuredContent,
        );
        assert.deepEqual((await redeemedEnd(b, once, END_WAIT_MS)).result?.content, stopped.result?.content);
      } finally {
        await killQueueProcesses();
      }
    });
  }
});
