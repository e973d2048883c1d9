/**
 * `mcplite jobs list|show <module>`: an operator reads a server's queued jobs from its queue (BullMQ on a real
 * redis-server, and on a real PostgreSQL with BullMQ's PostgreSQL backend, which the test starts; the queue kept in the
 * store, on redis-server) and its result
 * store (in the same server): each job's state, attempt, tool and call, why it failed, and one job's steps from its
 * log; and the command line it refuses. The module is the one the web side serves (tests/cli/fixtures/jobs-server.ts),
 * run by the CLI in a process of its own.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runWorker } from "../../mod.ts";
import { queueBackends } from "../helpers/queue-backends.ts";
import { POSTGRES_MISSING } from "../helpers/postgres-server.ts";
import { REDIS_MISSING } from "../helpers/redis-server.ts";
import { runCli } from "./cli-helpers.ts";
import { jobsFixture, ledgerRuns, stopped } from "./fixtures/jobs-server.ts";
import { attachListener } from "../../src/binding.ts";
import { registryOf } from "../../src/core/definitions/registry.ts";
import { continuationsOf } from "../../src/jobs/continuations.ts";
import { rerunsOf } from "../../src/jobs/job-rerun.ts";
import { readUntil } from "../helpers/wait.ts";

const MODULE = "tests/cli/fixtures/jobs-server.ts";

const servers = queueBackends("mcplite jobs");

/** The backends: where the fixture's queue and store are, and the variable the CLI's module reads it from. */
const BACKENDS = [
  { on: "redis-server", missing: REDIS_MISSING, url: () => servers.redis!.url, variable: "REDIS_URL" },
  { on: "PostgreSQL", missing: POSTGRES_MISSING, url: () => servers.postgres!.url, variable: "DATABASE_URL" },
] as const;

/**
 * Calls `report` and `ledger` on the fixture's web side, and reads each job's entry in the result store until it ended
 * (a bound for a loaded machine, not a measure).
 *
 * @returns Their job ids, `report`'s first.
 */
async function reportAndLedgerEnded(
  server: ReturnType<typeof jobsFixture>["server"],
  resultStore: ReturnType<typeof jobsFixture>["resultStore"],
): Promise<string[]> {
  const ids: string[] = [];
  for (const tool of ["report", "ledger"] as const) {
    const outcome = await server.call(tool, {});
    assert.equal(outcome.kind, "promise");
    ids.push(outcome.kind === "promise" ? outcome.entry! : "");
  }
  for (const id of ids) {
    await readUntil(() => resultStore.get(id), (entry) => entry?.status !== "working", `job ${id} to end`, {
      timeoutMs: 20_000,
      everyMs: 50,
    });
  }
  return ids;
}

describe("mcplite jobs: the command line", () => {
  it("is in the help, and refuses a line it cannot run, naming why", async () => {
    assert.match((await runCli(["--help"])).stdout, /mcplite jobs show <server module> <job id>/);
    const none = await runCli(["jobs"]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^mcplite: jobs takes list, show, cancel or retry\nusage: mcplite jobs list/);
    const fromElsewhere = await runCli(["jobs", "show", MODULE, "--from", "fetch", "some-job"]);
    assert.equal(fromElsewhere.code, 2);
    assert.match(fromElsewhere.stderr, /--from is for jobs retry/);
    const noRetry = await runCli(["jobs", "retry", "examples/quickstart.ts", "some-job"]);
    assert.equal(noRetry.code, 3, noRetry.stderr);
    assert.match(noRetry.stderr, /has no queue that runs a failed job again/);
    const cancelNoId = await runCli(["jobs", "cancel", MODULE]);
    assert.equal(cancelNoId.code, 2);
    assert.match(cancelNoId.stderr, /jobs cancel needs one job id/);
    const inMemory = await runCli(["jobs", "cancel", "examples/quickstart.ts", "some-job"]);
    assert.equal(inMemory.code, 3, inMemory.stderr);
    assert.match(inMemory.stderr, /keeps its jobs in its own process/);
    const noId = await runCli(["jobs", "show", MODULE]);
    assert.equal(noId.code, 2);
    assert.match(noId.stderr, /jobs show needs one job id/);
    // A job id is base64url: one in 64 begins with "-", which goes after `--` (POSIX guideline 10).
    const dashed = await runCli(["jobs", "show", MODULE, "-_s6HkZ-hnJtfNRgOO_rxw"]);
    assert.equal(dashed.code, 2);
    assert.match(
      dashed.stderr,
      /unknown option -_s6HkZ-hnJtfNRgOO_rxw \(a job id that begins with "-" goes after --\)/,
    );
    const toolElsewhere = await runCli(["jobs", "show", MODULE, "--tool", "report", "some-job"]);
    assert.equal(toolElsewhere.code, 2);
    assert.match(toolElsewhere.stderr, /--tool is for jobs list/);
    const noQueue = await runCli(["jobs", "list", "examples/quickstart.ts"]);
    assert.equal(noQueue.code, 3, noQueue.stderr);
    assert.match(noQueue.stderr, /has no queue that can be read/);
  });
});

for (const { on, missing, url, variable } of BACKENDS) {
  describe(`mcplite jobs on BullMQ (${on})`, { skip: missing }, () => {
    it("lists the jobs with their state, attempt, tool and failure; shows one's result, error and steps", async () => {
      const queue = `jobs-${crypto.randomUUID()}`;
      const { server, resultStore, close } = jobsFixture({ url: url(), queue, lockMs: 30_000 });
      const worker = runWorker(server, { concurrency: 2 });
      const env = { [variable]: url(), QUEUE: queue };
      try {
        const [report, ledger] = await reportAndLedgerEnded(server, resultStore);
        const list = await runCli(["jobs", "list", MODULE], { env });
        assert.equal(list.code, 0, list.stderr);
        const rows = list.stdout.trimEnd().split("\n");
        assert.match(rows[0], /^ID +STATE +ATTEMPT +TOOL +CALL +ADDED +FAILED$/);
        assert.match(
          rows.find((row) => row.startsWith(ledger))!,
          / failed +1 +ledger .* ledger for s1 refused the write$/,
        );
        assert.match(rows.find((row) => row.startsWith(report))!, / completed +1 +report /);

        const failed = await runCli(["jobs", "list", MODULE, "--state", "failed", "--json"], { env });
        assert.deepEqual(JSON.parse(failed.stdout).map((job: { id: string }) => job.id), [ledger]);
        // By tool: a name, or a prefix ending in `*` (`event:*`: an event's deliveries, which share the queue).
        const idsOf = async (...args: string[]) =>
          JSON.parse((await runCli(["jobs", "list", MODULE, ...args, "--json"], { env })).stdout)
            .map((job: { id: string }) => job.id);
        assert.deepEqual(await idsOf("--tool", "ledger"), [ledger]);
        assert.deepEqual(await idsOf("--tool=rep*"), [report]);
        assert.deepEqual(await idsOf("--tool", "event:*"), []);

        const shown = await runCli(["jobs", "show", MODULE, "--", report], { env });
        assert.equal(shown.code, 0, shown.stderr);
        assert.match(shown.stdout, new RegExp(`^job ${report}\n  tool +report\n`));
        assert.match(shown.stdout, /\n {2}queue +completed\n {2}attempt +1\n/);
        assert.match(shown.stdout, /\n {2}result +completed\n/);
        assert.match(
          shown.stdout,
          /\n {2}steps\n {4}attempt 1: step "fetch" started\n {4}attempt 1: step "fetch" ended after \d+ ms, 19 B of JSON\n/,
        );
        // Its journal, from the job store: each step's place, name and the size of its recorded value.
        assert.match(shown.stdout, /\n {2}journal\n {4}1 fetch {2}19 B {2}\S+\n {4}2 render {2}8 B {2}\S+\n$/);
        const error = await runCli(["jobs", "show", MODULE, "--", ledger], { env });
        assert.match(error.stdout, /\n {2}queue +failed\n/);
        assert.match(error.stdout, /\n {2}error +ledger for s1 refused the write\n/);

        const unknown = await runCli(["jobs", "show", MODULE, "no-such-job"], { env });
        assert.equal(unknown.code, 1);
        assert.match(unknown.stderr, /no job no-such-job in the queue or the result store/);
      } finally {
        await worker.close();
        await close();
      }
    });
  });
}

describe("mcplite jobs on the queue kept in the store (redis-server)", { skip: REDIS_MISSING }, () => {
  it("lists the jobs in it, and a failed one with its reason; shows one's queue state, result and journal", async () => {
    const queue = `jobs-${crypto.randomUUID()}`;
    const url = servers.redis!.url;
    const { server, resultStore, close } = jobsFixture({ url, queue, lockMs: 30_000, kind: "store" });
    const worker = runWorker(server, { concurrency: 2 });
    const env = { REDIS_URL: url, QUEUE: queue, QUEUE_KIND: "store" };
    try {
      const [report, ledger] = await reportAndLedgerEnded(server, resultStore);
      // Before: "the module's server has no queue that can be read" (exit 3).
      const list = await runCli(["jobs", "list", MODULE, "--json"], { env });
      assert.equal(list.code, 0, list.stderr);
      const jobs = JSON.parse(list.stdout) as { id: string; state: string; tool?: string; failedReason?: string }[];
      const failed = jobs.find((job) => job.id === ledger);
      assert.deepEqual([failed?.state, failed?.tool, failed?.failedReason], [
        "failed",
        "ledger",
        "ledger for s1 refused the write",
      ]);
      const byState = await runCli(["jobs", "list", MODULE, "--state", "failed", "--json"], { env });
      assert.deepEqual(JSON.parse(byState.stdout).map((job: { id: string }) => job.id), [ledger]);
      const shown = await runCli(["jobs", "show", MODULE, "--", report], { env });
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, /\n {2}result +completed\n/);
      assert.match(shown.stdout, /\n {2}journal\n {4}1 fetch {2}19 B {2}\S+\n {4}2 render {2}8 B {2}\S+\n$/);
    } finally {
      await worker.close();
      await close();
    }
  });
});

for (const { on, missing, url, variable } of BACKENDS) {
  describe(`mcplite jobs cancel on BullMQ (${on})`, { skip: missing }, () => {
    it("cancels a running job as its caller would: its entry cancelled, its run stopped; an ended one keeps its end", async () => {
      const queue = `jobs-${crypto.randomUUID()}`;
      const { server, resultStore, close } = jobsFixture({ url: url(), queue, lockMs: 30_000 });
      const worker = runWorker(server, { concurrency: 2 });
      const env = { [variable]: url(), QUEUE: queue };
      try {
        const outcome = await server.call("stuck", {});
        assert.equal(outcome.kind, "promise");
        const id = outcome.kind === "promise" ? outcome.entry! : "";
        const cancelled = await runCli(["jobs", "cancel", MODULE, "--", id], { env });
        assert.equal(cancelled.code, 0, cancelled.stderr);
        assert.equal(cancelled.stdout, `cancelled ${id}\n`);
        assert.equal((await resultStore.get(id))?.status, "cancelled"); // what its caller reads
        // The worker running it (this process) reads its entry within a third of its lease, and stops its run.
        await readUntil(() => Promise.resolve(stopped.includes(id)), Boolean, `job ${id}'s run to stop`, {
          timeoutMs: 60_000,
          everyMs: 50,
        });
        // Where operators look, it failed as cancelled, never "completed" (what the worker's run ending said before).
        const shown = await readUntil(
          async () => (await runCli(["jobs", "show", MODULE, "--", id], { env })).stdout,
          (stdout) => /\n {2}queue +failed\n/.test(stdout),
          `job ${id} failed in the queue`,
          { timeoutMs: 60_000, everyMs: 200 },
        );
        assert.match(shown, /\n {2}error +cancelled\n/);
        assert.match(shown, /\n {2}result +cancelled\n/);
        const again = await runCli(["jobs", "cancel", MODULE, "--", id], { env });
        assert.equal(again.code, 1);
        assert.match(again.stderr, new RegExp(`job ${id} had ended already: cancelled`));
        const unknown = await runCli(["jobs", "cancel", MODULE, "no-such-job"], { env });
        assert.equal(unknown.code, 1);
        assert.match(unknown.stderr, /no job no-such-job in the result store/);
      } finally {
        await worker.close();
        await close();
      }
    });
  });
}

for (const { on, missing, url, variable } of BACKENDS) {
  describe(`mcplite jobs retry on BullMQ (${on})`, { skip: missing }, () => {
    it("runs a failed job again as a new run, its completed steps kept, or from a step; refuses what it cannot", async () => {
      const queue = `jobs-${crypto.randomUUID()}`;
      const { server, resultStore, close } = jobsFixture({ url: url(), queue, lockMs: 30_000 });
      const worker = runWorker(server, { concurrency: 2 });
      const env = { [variable]: url(), QUEUE: queue };
      /** Reads job `id`'s entry until it ended (a bound for a loaded machine, not a measure). */
      const ended = (id: string) =>
        readUntil(() => resultStore.get(id), (entry) => entry !== undefined && entry.status !== "working", `${id}`, {
          timeoutMs: 20_000,
          everyMs: 50,
        });
      const engine = continuationsOf(registryOf(attachListener(server).core).runtime);
      /** Reads, in this process, until the queue holds job `id` in `state` (a bound for a loaded machine). */
      const inQueue = (id: string, state: string) =>
        readUntil(() => engine.queue!.inspect!({ id }), ([job]) => job?.state === state, `${id} ${state}`, {
          timeoutMs: 20_000,
          everyMs: 50,
        });
      /** The new run of job `id`, once the worker (in this process) made it and it ended. */
      const rerunOf = async (id: string) => {
        const { as } = await readUntil(() => rerunsOf(engine, id), (runs) => runs.as !== undefined, `${id}'s rerun`, {
          timeoutMs: 20_000,
          everyMs: 50,
        });
        await ended(as!);
        return as!;
      };
      /** Runs `mcplite jobs retry` once the queue holds the job failed (marked so just after BullMQ recorded it). */
      const retried = async (id: string, ...args: string[]) => {
        await inQueue(id, "failed");
        return await readUntil(
          () => runCli(["jobs", "retry", MODULE, ...args, "--", id], { env }),
          (run) => run.code === 0,
          "a retry",
          { timeoutMs: 60_000, everyMs: 200 },
        );
      };
      const start = async (name: string) => {
        const key = `${queue}:${name}`; // the runs' counts are this process's, across the backends' tests
        const outcome = await server.call("flaky_ledger", { key });
        assert.equal(outcome.kind, "promise");
        const id = outcome.kind === "promise" ? outcome.entry! : "";
        assert.match(JSON.stringify(await ended(id)), /the ledger is busy/);
        return id;
      };
      try {
        // Its completed steps kept: the fetch ran once, the write again; the old run's entry stays as its caller read it.
        const kept = await start("kept");
        assert.equal((await retried(kept)).stdout, `retrying ${kept}: a worker runs it again as a new run\n`);
        const rerun = await rerunOf(kept);
        assert.equal((await resultStore.get(rerun))?.status, "completed");
        assert.deepEqual(ledgerRuns.get(`${queue}:kept`), { fetch: 1, write: 2 });
        await inQueue(kept, "completed"); // the job that carries the new run ended as it did, where operators look
        const shown = (await runCli(["jobs", "show", MODULE, "--", kept], { env })).stdout;
        assert.match(shown, /\n {2}queue +completed\n/);
        assert.match(
          shown,
          /\n {2}result +failed \(the tool's error result\)\n {2}error +the ledger is busy \(\S+:kept\)\n/,
        );
        assert.match(shown, new RegExp(`\n {2}rerun as +${rerun}\n`));
        const second = (await runCli(["jobs", "show", MODULE, "--", rerun], { env })).stdout;
        assert.match(second, /\n {2}queue +completed\n/); // read under its first run's id, which carries it
        assert.match(second, new RegExp(`\n {2}result +completed\n {2}rerun of +${kept}\n`));
        assert.match(second, /\n {2}journal\n {4}1 fetch {2}1 B {2}\S+\n {4}2 write {2}\d+ B {2}\S+\n$/);

        // From a step: that step and those after it run again.
        const from = await start("from");
        const fromRun = await retried(from, "--from", "fetch");
        assert.equal(fromRun.stdout, `retrying ${from} from step fetch: a worker runs it again as a new run\n`);
        await rerunOf(from);
        assert.deepEqual(ledgerRuns.get(`${queue}:from`), { fetch: 2, write: 2 });

        // Refused: a completed run (nothing to run again), a step its journal does not have, an unknown job.
        const done = await runCli(["jobs", "retry", MODULE, "--", rerun], { env });
        assert.equal(done.code, 1);
        assert.match(done.stderr, new RegExp(`job ${rerun} completed: there is nothing to run again`));
        const noStep = await start("no-step");
        const wrong = await runCli(["jobs", "retry", MODULE, "--from", "render", "--", noStep], { env });
        assert.equal(wrong.code, 1);
        assert.match(wrong.stderr, /has no step "render" in its journal \(its steps: fetch\)/);
        const unknown = await runCli(["jobs", "retry", MODULE, "no-such-job"], { env });
        assert.equal(unknown.code, 1);
        assert.match(unknown.stderr, /job no-such-job is no longer kept in the result store/);
      } finally {
        await worker.close();
        await close();
      }
    });
  });
}
