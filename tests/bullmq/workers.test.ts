/**
 * Workers on BullMQ, on a real redis-server and on a real PostgreSQL (BullMQ's Postgres backend, the results in
 * `postgresResultStore`), each started by the test: the test process is the web instance (`createServer({ queue })`
 * answers every call of a `.longRunning()` tool with its promise at once); `mcplite worker` processes
 * (the runtime running the tests) take the jobs. A worker `kill -9`'d mid-run: BullMQ's stalled-job check
 * hands its jobs to the other worker, with no client asking; a job without `retry` ends as stopped; a
 * worker that gets SIGTERM drains.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { CallOutcome } from "../../mod.ts";
import { STOPPED_MESSAGE } from "../../src/jobs/stopped-jobs.ts";
import {
  assertStopped,
  gate,
  killQueueProcesses,
  logged,
  type QueueBackend,
  started,
  startWorker,
} from "../helpers/queue-processes.ts";
import { queuedServer } from "../helpers/queued-server.ts";
import { drained } from "../helpers/bullmq-counts.ts";
import { redeemedWithin } from "../helpers/outcome.ts";
import { POSTGRES_MISSING, startPostgres } from "../helpers/postgres-server.ts";
import { REDIS_MISSING, startRedis } from "../helpers/redis-server.ts";
import type { ServerProcess } from "../helpers/server-process.ts";

/** The backends: BullMQ and the result store on each, and the variable a worker reads its URL from. */
const BACKENDS = [
  { name: "redis-server", missing: REDIS_MISSING, start: startRedis, variable: "REDIS_URL" as const },
  { name: "PostgreSQL", missing: POSTGRES_MISSING, start: startPostgres, variable: "DATABASE_URL" as const },
] as const;
for (const { name, missing } of BACKENDS) if (missing) console.error(`bullmq workers on ${name}: skipped: ${missing}`);

/** BullMQ's lock on a running job: a killed worker's jobs move on within one to two of these. */
const LOCK_MS = 1_500;
/** The most a job waits at its gate (`ms`): a bound for a stuck test, not a measure. */
const GATED_MS = 60_000;

after(killQueueProcesses);

function tokenOf(outcome: CallOutcome): string {
  assert.equal(outcome.kind, "promise", JSON.stringify(outcome));
  return (outcome as { token: string }).token;
}

/** The job's answer: its structured content, or its error text. */
function answerOf(outcome: CallOutcome): { n?: number; pid?: number; error?: string } {
  assert.ok(outcome.kind === "answer" || outcome.kind === "failure", JSON.stringify(outcome));
  const result = outcome.result;
  if (result.isError) return { error: (result.content[0] as { text: string }).text };
  return JSON.parse((result.content[0] as { text: string }).text);
}

for (const { name: on, missing, start, variable } of BACKENDS) {
  describe(`runWorker on BullMQ (${on}): jobs outlive the process that runs them`, { skip: missing }, () => {
    let server: (ServerProcess & { remove?(): Promise<void> }) | undefined;
    let url = "";
    before(async () => {
      server = await start();
      url = server.url;
    });
    /** A queue of its own for each test. */
    const backendFor = (queue: string): QueueBackend => ({ url, variable, queue, lockMs: LOCK_MS });
    after(() => server?.remove?.() ?? server?.stop()); // PostgreSQL's cluster with it

    it("kill -9 one of two workers mid-run: each of 20 calls gets its own result, with no client asking meanwhile", async () => {
      const name = `kill-${crypto.randomUUID()}`;
      const web = queuedServer({ url, queue: name, lockMs: LOCK_MS });
      try {
        const [a, b] = await Promise.all([
          startWorker(backendFor(name), "--concurrency", "10"),
          startWorker(backendFor(name), "--concurrency", "10"),
        ]);
        const tokens = [];
        const held = gate();
        for (let n = 0; n < 20; n++) {
          tokens.push(tokenOf(await web.server.call("slow", { n, ms: GATED_MS, gate: held.path })));
        }
        await started([a, b], 20);
        a.kill("SIGKILL"); // mid-run: each job waits at the gate
        await a.exited;
        held.open();
        // Nobody redeems: BullMQ's stalled-job check gives the dead worker's jobs to the live one.
        await drained(url, name, 60_000);
        const answers = [];
        for (const token of tokens) answers.push(answerOf(await web.server.call("redeem", { promise: token })));
        assert.deepEqual(answers.map((answer) => answer.n), [...Array(20).keys()], JSON.stringify(answers));
        assert.ok(answers.every((answer) => answer.pid === a.pid || answer.pid === b.pid), JSON.stringify(answers));
        // Ten ran on each; the live worker ran the killed one's again (which finished none of its ten).
        assert.ok(answers.filter((answer) => answer.pid === b.pid).length > 10, JSON.stringify(answers));
      } finally {
        await web.close();
      }
    });

    it("a job without retry whose worker dies ends as stopped, once the queue hands it to another worker", async () => {
      const name = `stopped-${crypto.randomUUID()}`;
      const web = queuedServer({ url, queue: name, lockMs: LOCK_MS });
      try {
        const a = await startWorker(backendFor(name));
        const token = tokenOf(await web.server.call("fragile", { n: 1, ms: 3_000 }));
        await started([a], 1);
        a.kill("SIGKILL");
        await a.exited;
        await startWorker(backendFor(name));
        const answer = answerOf(await redeemedWithin(web.server, token, 30_000));
        assert.equal(answer.error, STOPPED_MESSAGE);
      } finally {
        await web.close();
      }
    });

    it("SIGTERM drains: a running job finishes on the worker, which then exits 0", async () => {
      const name = `drain-${crypto.randomUUID()}`;
      const web = queuedServer({ url, queue: name, lockMs: LOCK_MS });
      try {
        const a = await startWorker(backendFor(name), "--drain-ms", "20000");
        const held = gate();
        const token = tokenOf(await web.server.call("fragile", { n: 7, ms: GATED_MS, gate: held.path }));
        await started([a], 1);
        a.kill("SIGTERM");
        await logged([a], /draining 1 running job/g, 1);
        held.open(); // the job ends while its worker drains
        await assertStopped(a);
        assert.deepEqual(answerOf(await web.server.call("redeem", { promise: token })), { n: 7, pid: a.pid });
      } finally {
        await web.close();
      }
    });

    it("SIGTERM past --drain-ms gives the job back to the queue, and another worker runs it (no retry needed)", async () => {
      const name = `handback-${crypto.randomUUID()}`;
      const web = queuedServer({ url, queue: name, lockMs: LOCK_MS });
      try {
        const a = await startWorker(backendFor(name), "--drain-ms", "100");
        const held = gate();
        const token = tokenOf(await web.server.call("fragile", { n: 3, ms: GATED_MS, gate: held.path }));
        await started([a], 1);
        a.kill("SIGTERM");
        await assertStopped(a);
        held.open(); // given back unfinished: the next worker's run ends at once
        const b = await startWorker(backendFor(name));
        assert.deepEqual(answerOf(await redeemedWithin(web.server, token, 30_000)), { n: 3, pid: b.pid });
      } finally {
        await web.close();
      }
    });
  });
}
