/**
 * Declared work whose worker is `kill -9`'d mid-job, on BullMQ over a real redis-server and a real PostgreSQL, and on
 * the queue those stores keep themselves (`storeQueue()`, instances without a queue server): the test process is the
 * web instance; two `mcplite worker` processes (the tests' runtime, and Node 22) run step a, a durable sleep (200 ms),
 * then step b, which waits at a gate inside its `fn`, before its effect. One worker is killed there; BullMQ's
 * stalled-job check (the store queue's lapsed claims) gives its jobs to the other, which resumes them: each call gets
 * its own result, each completed step's effect (an INCR) is counted once, and a handler ran once per call, on the web
 * instance.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { counterKey, gateKey, type JobAnswer, jobsServer } from "../helpers/jobs-server.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { killQueueProcesses, logged, type QueueBackend, startWorkerOf } from "../helpers/queue-processes.ts";
import { queueBackends, storeQueueBackends, type WorkerBackend, workerBackends } from "../helpers/queue-backends.ts";
import { answered, redeemedWithin } from "../helpers/outcome.ts";
import { tokenOf } from "../helpers/instances.ts";
import { readUntil } from "../helpers/wait.ts";

/**
 * BullMQ's lock on a running job: a killed worker's jobs move on within one to two of these. Long enough that a
 * live worker on a loaded machine renews its locks in time: a job it lost meanwhile would run step b twice.
 */
const LOCK_MS = 3_000;
/** How long a job may take to end once the gate opens, at most: a bound for a loaded machine, not a measure. */
const END_MS = 90_000;

const servers = queueBackends("declared work, a worker killed mid-job");
after(killQueueProcesses);

/**
 * `calls` calls of `tool` (`ab` or `ab_handled`) on a web instance, two workers (`runtime`: a binary running the
 * SDK's TypeScript as is, default the tests' own), worker A killed once every job waits inside step b; then the
 * gate opens. Returns each call's answer, what the counters read, and the workers.
 */
async function killMidJob(on: WorkerBackend, tool: "ab" | "ab_handled", calls: number, runtime?: string) {
  const queue = `${tool}-${crypto.randomUUID()}`;
  const backend: QueueBackend = { url: on.url, variable: on.variable, queue, lockMs: LOCK_MS, kind: on.kind };
  const web = jobsServer({ url: on.url, counters: on.counters, queue, lockMs: LOCK_MS, kind: on.kind });
  try {
    const spec = { module: "tests/helpers/jobs-server.ts", runtime, env: { COUNTER_URL: on.counters } };
    const slots = String(calls / 2); // every job inside step b at once: half on each worker
    const [a, b] = await Promise.all([
      startWorkerOf(spec, backend, "--concurrency", slots),
      startWorkerOf(spec, backend, "--concurrency", slots),
    ]);
    const tokens: string[] = [];
    for (let n = 0; n < calls; n++) {
      tokens.push(tokenOf(await web.server.call(tool, { n })));
    }
    // Each job ran step a, slept, and waits inside step b, its effect not yet done; A holds half of them.
    await logged([a, b], /^job \d+ at b$/gm, calls, /^mcplite: (error:|tool "\w+" failed)/m);
    const held = new Set([...a.log().matchAll(/^job (\d+) at b$/gm)].map((line) => Number(line[1])));
    assert.ok(held.size > 0, `worker A holds no job inside step b:\n${a.log()}`);
    a.kill("SIGKILL");
    await a.exited;
    await web.counters.set(gateKey(queue), "open");
    // Nobody reads a result until every call's step b ran (its effect counted): the queue, not a read, delivered the
    // killed worker's jobs to the other.
    const bs = () => Promise.all(tokens.map((_, n) => web.counters.get(counterKey(queue, n, "b"))));
    await readUntil(bs, (counted) => counted.every((b) => Number(b ?? 0) >= 1), "every call's step b", {
      timeoutMs: END_MS,
      everyMs: 100,
    });
    const answers = await Promise.all(
      tokens.map(async (token) => answered<JobAnswer>(await redeemedWithin(web.server, token, END_MS))),
    );
    const count = async (n: number, what: string) => Number(await web.counters.get(counterKey(queue, n, what)) ?? 0);
    const counts = await Promise.all(
      answers.map(async (_, n) => ({
        n,
        a: await count(n, "a"),
        b: await count(n, "b"),
        handled: await count(n, "handled"),
      })),
    );
    return { answers, counts, a, b, held };
  } finally {
    await web.close();
  }
}

/** Asserts the outcome of {@link killMidJob}: each call its own answer, each step's effect once, all ended on B. */
function assertOnce(outcome: Awaited<ReturnType<typeof killMidJob>>, calls: number): void {
  const { answers, counts, b, held } = outcome;
  const report = JSON.stringify({ answers, counts });
  assert.deepEqual(answers.map((answer) => answer.n), [...Array(calls).keys()], report);
  // Every step's value is its own effect's count: 1, once, also for the jobs resumed on B after A died.
  assert.ok(answers.every((answer) => answer.a === 1 && answer.b === 1), report);
  assert.ok(counts.every((count) => count.a === 1 && count.b === 1), report);
  // A was killed with its jobs inside step b: B ended every job, A's too, from where A left them, on their second
  // start; B's own on their first (a durable sleep is no start).
  assert.ok(answers.every((answer) => answer.pid === b.pid), report);
  assert.deepEqual(answers.map((answer) => answer.attempt), answers.map(({ n }) => held.has(n) ? 2 : 1), report);
}

const deployments = [
  ...workerBackends(servers).map((backend) => ({ queue: "BullMQ", ...backend })),
  ...storeQueueBackends(servers).map((backend) => ({ queue: "the shared store's own queue", ...backend })),
];

for (const { queue, name: on, missing, backend, node22Skip } of deployments) {
  describe(`declared work on ${queue} (${on}): a worker kill -9'd mid-job`, () => {
    it("20 calls, one of two workers killed inside step b: each call gets its own result, each step's effect once", {
      timeout: 180_000,
    }, async (t) => {
      const reason = missing();
      if (reason) return t.skip(reason);
      assertOnce(await killMidJob(backend(), "ab", 20), 20);
    });

    it("the same with the workers on Node 22", { skip: node22Skip, timeout: 180_000 }, async (t) => {
      const reason = missing();
      if (reason) return t.skip(reason);
      const node = await node22();
      if (node === undefined) return t.skip(NODE22_MISSING);
      assertOnce(await killMidJob(backend(), "ab", 20, node), 20);
    });

    it("a tool with a handler: it ran once per call on the web instance, whatever the kills and restarts", {
      timeout: 180_000,
    }, async (t) => {
      const reason = missing();
      if (reason) return t.skip(reason);
      const outcome = await killMidJob(backend(), "ab_handled", 10);
      assertOnce(outcome, 10);
      assert.ok(outcome.counts.every((count) => count.handled === 1), JSON.stringify(outcome.counts));
    });
  });
}
