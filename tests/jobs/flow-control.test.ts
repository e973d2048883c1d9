/**
 * Flow control of declared work on BullMQ over a real redis-server and a real PostgreSQL, with two `mcplite worker`
 * processes of concurrency 4 (tests/helpers/flow-server.ts) and the test process as the web instance: per-key
 * concurrency 1 over ten jobs on two keys (never two of a key at once, both keys at once), a rate limit of 5 a second
 * per key (no second of a key's recorded starts holds more than 5), and a worker `kill -9`'d holding a key's slot
 * (the key's next job runs on the other once the slot's lease lapsed). Once per run, the first two with the workers on
 * Node 22.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { flowKey, flowServer } from "../helpers/flow-server.ts";
import { killQueueProcesses, logged, type QueueBackend, startWorkerOf } from "../helpers/queue-processes.ts";
import { queueBackends, type WorkerBackend, workerBackends } from "../helpers/queue-backends.ts";
import { answered, redeemedWithin } from "../helpers/outcome.ts";
import { tokenOf } from "../helpers/instances.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";

/** BullMQ's lock on a running job: a killed worker's job moves on within one to two of these. */
const LOCK_MS = 3_000;
/** The slots' lease (the server's `leaseMs`): a killed worker's slot is free within it. */
const LEASE_MS = 2_000;
/** How long the jobs may take to end, at most: a bound for a loaded machine, not a measure. */
const END_MS = 90_000;

const servers = queueBackends("flow control on workers");
after(killQueueProcesses);

/** A web instance and two workers (concurrency 4) on a queue of their own; `body` runs, then the web closes. */
async function withWorkers<T>(
  on: WorkerBackend,
  body: (deployment: Awaited<ReturnType<typeof deploy>>) => Promise<T>,
  workers = 2,
  runtime?: string,
): Promise<T> {
  const deployment = await deploy(on, workers, runtime);
  try {
    return await body(deployment);
  } finally {
    await deployment.web.close();
  }
}

/** The deployment of {@link withWorkers}; `runtime`: the workers' binary (Node 22's), default the tests' own. */
async function deploy(on: WorkerBackend, workers: number, runtime?: string) {
  const queue = `flow-${crypto.randomUUID()}`;
  const backend: QueueBackend = { url: on.url, variable: on.variable, queue, lockMs: LOCK_MS };
  const web = flowServer({ url: on.url, counters: on.counters, queue, lockMs: LOCK_MS, leaseMs: LEASE_MS });
  const spec = {
    module: "tests/helpers/flow-server.ts",
    runtime,
    env: { COUNTER_URL: on.counters, LEASE_MS: String(LEASE_MS) },
  };
  const start = () => startWorkerOf(spec, backend, "--concurrency", "4");
  const started = await Promise.all(Array.from({ length: workers }, start));
  const key = (what: string) => flowKey(queue, what);
  /** Calls `tool` once per key of `keys`, in order; resolves each call's answer. */
  const callAll = async (tool: "keyed" | "rated", keys: readonly string[]) => {
    const tokens: string[] = [];
    for (const [n, k] of keys.entries()) tokens.push(tokenOf(await web.server.call(tool, { n, key: k })));
    return await Promise.all(tokens.map(async (token) => answered(await redeemedWithin(web.server, token, END_MS))));
  };
  return { web, workers: started, key, callAll, start };
}

for (const { name: on, missing, backend, node22Skip } of workerBackends(servers)) {
  describe(`flow control on BullMQ (${on}), two worker processes`, () => {
    it("ten jobs on two keys, concurrency 1 per key: never two of a key at once, and both keys at once", {
      timeout: 180_000,
    }, async (t) => {
      const reason = missing();
      if (reason) return t.skip(reason);
      await withWorkers(backend(), async ({ web, key, callAll }) => {
        const keys = ["a", "b", "a", "b", "a", "b", "a", "b", "a", "b"];
        const answers = await callAll("keyed", keys);
        assert.deepEqual(answers, keys.map((_, n) => ({ n })));
        assert.equal(Number(await web.counters.get(key("overlaps")) ?? 0), 0, "a job found another of its key running");
        const spans = async (k: string) =>
          (await web.counters.lrange(key(`spans:${k}`), 0, -1)).map((span) => JSON.parse(span) as number[])
            .sort((x, y) => x[0] - y[0]);
        const [a, b] = [await spans("a"), await spans("b")];
        assert.equal(a.length + b.length, 10);
        for (const each of [a, b]) {
          for (let i = 1; i < each.length; i++) {
            assert.ok(each[i][0] >= each[i - 1][1], `two jobs of a key ran at once: ${JSON.stringify(each)}`);
          }
        }
        const together = a.some(([start, end]) => b.some(([s, e]) => s < end && start < e));
        assert.ok(together, `no job of a ran while one of b did: ${JSON.stringify({ a, b })}`);
      });
    });

    it("the same with the workers on Node 22, and a rate limit held there too", {
      skip: node22Skip,
      timeout: 180_000,
    }, async (t) => {
      const reason = missing();
      if (reason) return t.skip(reason);
      const node = await node22();
      if (node === undefined) return t.skip(NODE22_MISSING);
      await withWorkers(
        backend(),
        async ({ web, key, callAll }) => {
          const keys = ["a", "b", "a", "b", "a", "b", "a", "b", "a", "b"];
          assert.deepEqual(await callAll("keyed", keys), keys.map((_, n) => ({ n })));
          assert.equal(
            Number(await web.counters.get(key("overlaps")) ?? 0),
            0,
            "a job found another of its key running",
          );
          await callAll("rated", Array.from({ length: 12 }, () => "a"));
          const starts = (await web.counters.lrange(key("starts:a"), 0, -1)).map(Number).sort((x, y) => x - y);
          // About time itself (the limit is a rate): any 6 starts span a second or more, a bound load cannot break.
          for (let i = 0; i + 5 < starts.length; i++) assert.ok(starts[i + 5] - starts[i] >= 1_000, `${starts}`);
        },
        2,
        node,
      );
    });

    it("a rate limit of 5 a second per key, across two workers: no second of a key's starts holds more than 5", {
      timeout: 180_000,
    }, async (t) => {
      const reason = missing();
      if (reason) return t.skip(reason);
      await withWorkers(backend(), async ({ web, key, callAll }) => {
        const keys = Array.from({ length: 24 }, (_, n) => n % 2 === 0 ? "a" : "b");
        await callAll("rated", keys);
        for (const k of ["a", "b"]) {
          const starts = (await web.counters.lrange(key(`starts:${k}`), 0, -1)).map(Number).sort((x, y) => x - y);
          assert.equal(starts.length, 12);
          // About time itself (the limit is a rate): any 6 starts of a key span a second or more, no window of a second
          // holds 6; a bound load cannot break.
          for (let i = 0; i + 5 < starts.length; i++) {
            assert.ok(starts[i + 5] - starts[i] >= 1_000, `6 starts of ${k} within a second: ${starts}`);
          }
        }
      });
    });

    it("a worker kill -9'd holding a key's slot: the key's next job runs on the other once the lease lapsed", {
      timeout: 180_000,
    }, async (t) => {
      const reason = missing();
      if (reason) return t.skip(reason);
      await withWorkers(backend(), async ({ web, key, workers: [a], start }) => {
        const first = tokenOf(await web.server.call("held", { n: 1, key: "k" }));
        await logged([a], /^job 1 holds its key$/gm, 1);
        const second = tokenOf(await web.server.call("held", { n: 2, key: "k" }));
        const b = await start();
        a.kill("SIGKILL");
        await a.exited;
        await web.counters.set(key("gate"), "open");
        // Job 1 goes on where BullMQ gives it (its lock lapsed), job 2 once A's slot lapsed: both end on B.
        const answers = await Promise.all(
          [first, second].map(async (token) => answered(await redeemedWithin(web.server, token, END_MS))),
        );
        assert.deepEqual(answers, [{ n: 1, pid: b.pid }, { n: 2, pid: b.pid }]);
      }, 1);
    });
  });
}
