/**
 * Child work (`invoke()`) on BullMQ over a real redis-server and a real PostgreSQL: the test process is the web
 * instance; two `mcplite worker` processes run `parent` (tests/helpers/jobs-server.ts), which invokes three `child`
 * jobs in parallel, each waiting at a gate inside its step before its effect (an INCR). One worker is `kill -9`'d
 * while the children wait: each child's effect is counted once and each parent answers its three results. Cancelling
 * a parent cancels its running children: each stops at the gate, its effect never done.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { counterKey, gateKey, jobsServer } from "../helpers/jobs-server.ts";
import { killQueueProcesses, logged, type QueueBackend, startWorkerOf } from "../helpers/queue-processes.ts";
import { queueBackends, type WorkerBackend, workerBackends } from "../helpers/queue-backends.ts";
import { answered, redeemedWithin } from "../helpers/outcome.ts";
import { tokenOf } from "../helpers/instances.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";

/** BullMQ's lock on a running job: a killed worker's jobs move on within one to two of these. */
const LOCK_MS = 3_000;
/** How long a parent may take to end once the gate opens, at most: a bound for a loaded machine, not a measure. */
const END_MS = 90_000;
/** A line that says a worker failed where the test expects none. */
const FAILED = /^mcplite: (error:|tool "\w+" failed)/m;

/** A parent's answer: its call's number, its children's values, and which start of it ended it. */
interface ParentAnswer {
  readonly n: number;
  readonly results: readonly { readonly k: number; readonly made: number; readonly pid: number }[];
  readonly attempt: number;
}

const servers = queueBackends("child work");
after(killQueueProcesses);

/**
 * A web instance and two workers of concurrency 4 on `on` (`runtime`: a binary running the SDK's TypeScript as is,
 * default the tests' own), for `run`; everything closed after it.
 */
async function deployment<T>(
  on: WorkerBackend,
  run: (
    web: ReturnType<typeof jobsServer>,
    workers: Awaited<ReturnType<typeof startWorkerOf>>[],
    queue: string,
  ) => Promise<T>,
  runtime?: string,
): Promise<T> {
  const queue = `child-${crypto.randomUUID()}`;
  const backend: QueueBackend = { url: on.url, variable: on.variable, queue, lockMs: LOCK_MS };
  const web = jobsServer({ url: on.url, counters: on.counters, queue, lockMs: LOCK_MS });
  try {
    const spec = { module: "tests/helpers/jobs-server.ts", runtime, env: { COUNTER_URL: on.counters } };
    const workers = await Promise.all([
      startWorkerOf(spec, backend, "--concurrency", "4"),
      startWorkerOf(spec, backend, "--concurrency", "4"),
    ]);
    return await run(web, workers, queue);
  } finally {
    await web.close();
  }
}

/**
 * Two calls of `parent` on `on` (its workers on `runtime`), worker A killed once every child waits inside its step;
 * then the gate opens: each parent answers its three children's values, each child's effect counted once.
 */
async function parentsKilled(on: WorkerBackend, runtime?: string): Promise<void> {
  const calls = 2;
  await deployment(on, async (web, [a, b], queue) => {
    const tokens: string[] = [];
    for (let n = 0; n < calls; n++) tokens.push(tokenOf(await web.server.call("parent", { n })));
    // Every child started and waits inside its step, its effect not yet done; A holds some of them.
    await logged([a, b], /^child \d+\.\d at gate$/gm, calls * 3, FAILED);
    assert.match(a.log() + b.log(), /^parent 0 started$/m);
    const held = [...a.log().matchAll(/^child (\d+\.\d) at gate$/gm)].map((line) => line[1]);
    assert.ok(held.length > 0, `worker A holds no child:\n${a.log()}\n${b.log()}`);
    a.kill("SIGKILL");
    await a.exited;
    await web.counters.set(gateKey(queue), "open");
    const answers = await Promise.all(
      tokens.map(async (token) => answered<ParentAnswer>(await redeemedWithin(web.server, token, END_MS))),
    );
    const report = JSON.stringify({ answers, held });
    assert.deepEqual(answers.map((answer) => answer.n), [0, 1], report);
    for (const answer of answers) {
      // In the order of the calls, each child's value its own effect's count: 1.
      assert.deepEqual(answer.results.map(({ k, made }) => ({ k, made })), [1, 2, 3].map((k) => ({ k, made: 1 })));
      for (const k of [1, 2, 3]) {
        assert.equal(Number(await web.counters.get(counterKey(queue, answer.n, `child${k}`))), 1, report);
      }
    }
    // Every child held by A ended on B, from its step (A died before its effect).
    assert.ok(answers.every((answer) => answer.results.every((each) => each.pid === b.pid)), report);
  }, runtime);
}

for (const { name: on, missing, backend, node22Skip } of workerBackends(servers)) {
  describe(`child work on BullMQ (${on})`, () => {
    it(
      "two parents of three children each, one of two workers killed as the children wait: effects once, all results",
      {
        timeout: 180_000,
      },
      async (t) => {
        const reason = missing();
        if (reason) return t.skip(reason);
        await parentsKilled(backend());
      },
    );

    it("the same with the workers on Node 22", { skip: node22Skip, timeout: 180_000 }, async (t) => {
      const reason = missing();
      if (reason) return t.skip(reason);
      const node = await node22();
      if (node === undefined) return t.skip(NODE22_MISSING);
      await parentsKilled(backend(), node);
    });

    it("cancelling a parent cancels its running children: each stops at the gate, its effect never done", {
      timeout: 180_000,
    }, async (t) => {
      const reason = missing();
      if (reason) return t.skip(reason);
      await deployment(backend(), async (web, workers, queue) => {
        const token = tokenOf(await web.server.call("parent", { n: 7 }));
        await logged(workers, /^child 7\.\d at gate$/gm, 3, FAILED);
        const cancelled = await web.server.call("redeem", { promise: token, cancel: true });
        assert.notEqual(cancelled.kind, "promise", JSON.stringify(cancelled));
        // Each worker reads its running jobs' entries now and then: each child finds its own cancelled.
        await logged(workers, /^child 7\.\d stopped$/gm, 3, FAILED);
        await web.counters.set(gateKey(queue), "open");
        for (const k of [1, 2, 3]) assert.equal(await web.counters.get(counterKey(queue, 7, `child${k}`)), null);
      });
    });
  });
}
