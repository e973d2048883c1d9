/**
 * Retries of thrown errors on BullMQ workers, over a real redis-server and a real PostgreSQL: the test process is the
 * web instance; a `mcplite worker` process runs step a, then step b, whose fn throws a transient 503 on some tries
 * (its effect, an INCR, only once it succeeds). A tool's retry runs the work again, its step a read from the journal;
 * a step's own retry runs b again; a `NonRetryableError` ends the call at once. Then the worker is `kill -9`'d while
 * three jobs are mid-retry (inside b's second try, after a first one threw and its backoff passed in the queue), and a
 * second worker resumes them: each with the runs left, by the queue's count of deaths and the journal's of throws.
 * Once with the workers on the tests' runtime, once on Node 22. The same in process: tests/jobs/retry.test.ts.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { counterKey, type JobAnswer, jobsServer } from "../helpers/jobs-server.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { killQueueProcesses, logged, type QueueBackend, startWorkerOf } from "../helpers/queue-processes.ts";
import { queueBackends, type WorkerBackend, workerBackends } from "../helpers/queue-backends.ts";
import { answered, failedWith, redeemedWithin } from "../helpers/outcome.ts";
import { tokenOf } from "../helpers/instances.ts";

/** BullMQ's lock on a running job: a killed worker's jobs move on within one to two of these. */
const LOCK_MS = 3_000;
/** How long a job may take to end, at most: a bound for a loaded machine, not a measure. */
const END_MS = 90_000;

const servers = queueBackends("retries of thrown errors on workers");
after(killQueueProcesses);

/**
 * The scenario on `to`: the tool's retry, a `NonRetryableError`, then worker A `kill -9`'d while three jobs are
 * mid-retry and worker B resuming them (`runtime`: a binary running the SDK's TypeScript as is, default the tests' own).
 */
async function retriedThroughKill(to: WorkerBackend, runtime?: string): Promise<void> {
  const queue = `retry-${crypto.randomUUID()}`;
  const web = jobsServer({ url: to.url, counters: to.counters, queue, lockMs: LOCK_MS });
  try {
    const spec = { module: "tests/helpers/jobs-server.ts", runtime, env: { COUNTER_URL: to.counters } };
    const processes: QueueBackend = { url: to.url, variable: to.variable, queue, lockMs: LOCK_MS };
    const a = await startWorkerOf(spec, processes, "--concurrency", "8");
    const count = async (n: number, what: string) => Number(await web.counters.get(counterKey(queue, n, what)) ?? 0);
    const counts = async (n: number) => ({
      a: await count(n, "a"),
      tries: await count(n, "tries"),
      b: await count(n, "b"),
    });

    // The tool's retry: b threw twice, the work ran a third time; a read from the journal, b's effect once.
    const flaky = tokenOf(await web.server.call("flaky_job", { n: 0 }));
    const refused = tokenOf(await web.server.call("refused", { n: 1 }));
    const answer = answered<JobAnswer>(await redeemedWithin(web.server, flaky, END_MS));
    assert.deepEqual({ a: answer.a, b: answer.b, attempt: answer.attempt }, { a: 1, b: 1, attempt: 3 });
    assert.deepEqual(await counts(0), { a: 1, tries: 3, b: 1 });
    // A NonRetryableError: the call fails at once, however many attempts the tool and the step have.
    assert.equal(failedWith(await redeemedWithin(web.server, refused, END_MS)), "the ledger refused it (try 1)");
    assert.deepEqual(await counts(1), { a: 1, tries: 1, b: 0 });

    // Three jobs whose b threw on try 1 and waits inside try 2 when their worker is killed.
    const tokens = [
      tokenOf(await web.server.call("flaky_job_killed", { n: 2 })),
      tokenOf(await web.server.call("flaky_step", { n: 3 })),
      tokenOf(await web.server.call("flaky_step_spent", { n: 4 })),
    ];
    await logged([a], /^job [234] try 2$/gm, 3);
    a.kill("SIGKILL");
    await a.exited;
    const b = await startWorkerOf(spec, processes, "--concurrency", "8");
    const [killed, step, spent] = await Promise.all(
      tokens.map((token) => redeemedWithin(web.server, token, END_MS)),
    );
    // The tool's retry: a throw (attempt 1), a death (attempt 2), then b succeeds on attempt 3 of 3.
    assert.deepEqual({ ...answered<JobAnswer>(killed), n: 2, pid: b.pid }, {
      n: 2,
      a: 1,
      b: 1,
      pid: b.pid,
      attempt: 3,
    });
    assert.deepEqual(await counts(2), { a: 1, tries: 3, b: 1 });
    // The step's retry: its journaled throw left it two runs; the death took none of them (it is the job's).
    assert.deepEqual({ ...answered<JobAnswer>(step), pid: b.pid }, { n: 3, a: 1, b: 1, pid: b.pid, attempt: 2 });
    assert.deepEqual(await counts(3), { a: 1, tries: 3, b: 1 });
    // A step of 2 attempts: its throw on try 1 was journaled, so after the death it had one run left, which threw.
    assert.equal(failedWith(spent), "503 from the ledger (try 3)");
    assert.deepEqual(await counts(4), { a: 1, tries: 3, b: 0 });
  } finally {
    await web.close();
  }
}

for (const { name: on, missing, backend, node22Skip } of workerBackends(servers)) {
  describe(`retries of thrown errors on BullMQ (${on})`, () => {
    it("a step that throws twice then succeeds, a NonRetryableError, then a worker kill -9'd mid-retry", {
      timeout: 180_000,
    }, async (t) => {
      const reason = missing();
      if (reason) return t.skip(reason);
      await retriedThroughKill(backend());
    });

    it("the same with the workers on Node 22", { skip: node22Skip, timeout: 180_000 }, async (t) => {
      const reason = missing();
      if (reason) return t.skip(reason);
      const node = await node22();
      if (node === undefined) return t.skip(NODE22_MISSING);
      await retriedThroughKill(backend(), node);
    });
  });
}
