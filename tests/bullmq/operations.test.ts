/**
 * What an operator sees of queued jobs in BullMQ's own view (read the way Bull Board reads it), on a real
 * redis-server and on a real PostgreSQL (BullMQ's Postgres backend), each started by the test: a job is named after
 * its tool, with its tool and call id readable beside the sealed job (its start is BullMQ's own count, never
 * written by the server); its progress is a percentage; a finished
 * job is kept (`keepCompletedMs`); a job that is not one the server made is failed at once, never tried again, and
 * warned of once to the server's logger; jobs that never end do not hold a worker's slots past their `timeoutMs`.
 * BullMQ's lock messages through an outage of redis-server (SIGSTOP), and a progress update of a job whose row went
 * (PostgreSQL), are one warning each, never errors.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createPostgresBackend, Queue, Worker } from "bullmq";
import pg from "pg";
import * as v from "valibot";
import { createMemoryResultStore, createServer, defineTool, runWorker } from "../../mod.ts";
import { bullmqQueue } from "../../src/bullmq/mod.ts";
import { POSTGRES_MISSING } from "../helpers/postgres-server.ts";
import { REDIS_MISSING } from "../helpers/redis-server.ts";
import { bullmqBackends, queueBackends } from "../helpers/queue-backends.ts";
import { hang, jobUntil, ledger, queuedInProcess } from "../helpers/queued-in-process.ts";
import { modernRequest, toolsCall } from "../helpers/request.ts";
import { readUntil, waitFor } from "../helpers/wait.ts";

const SECRET = "queue operations' secret: thirty-two bytes or more";

const servers = queueBackends("bullmq operations");

/** The backends: a `bullmqQueue()` on each, and BullMQ's own `Queue` on it, as a board opens one. */
const BACKENDS = bullmqBackends(servers);

/** A server on the queue: `steps` reports step 2 of 6, then waits for `gate`. */
function stepsServer(queue: ReturnType<typeof bullmqQueue>, gate: Promise<void>) {
  const warnings: unknown[][] = [];
  const logger = {
    debug() {},
    info() {},
    warn: (...args: unknown[]) => void warnings.push(args),
    error() {},
  };
  const { server, ids } = queuedInProcess("operations", queue, { logger });
  const steps = defineTool("steps").describe("Six steps").input(v.object({})).longRunning().defer(async (_, work) => {
    work.progress(2, 6, "step 2");
    await gate;
    return "stepped";
  });
  return { server: server.tool(steps), warnings, ids };
}

/**
 * A server on the queue whose tools fail: `ledger` throws, `hang` never ends (`timeoutMs` 300); its logger's error
 * records kept, and the job ids in the order the calls came.
 */
function failingServer(queue: ReturnType<typeof bullmqQueue>, maskErrors: boolean) {
  const errors: [Record<string, unknown>, string?][] = [];
  const logger = {
    debug() {},
    info() {},
    warn() {},
    error: (fields: Record<string, unknown>, message?: string) => void errors.push([fields, message]),
  };
  const { server, ids } = queuedInProcess("operations", queue, { logger, maskErrors });
  return { server: server.tool(ledger).tool(hang), errors, ids };
}

/** Calls a tool of `server` over MCP-lite, with the JSON-RPC id `id`: answered with its promise. */
async function callOver(server: { fetch(request: Request): Promise<Response> }, tool: string, id: string | number) {
  const response = await server.fetch(
    new Request("http://localhost/mcp-lite/v1/calltools", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(toolsCall(tool, {}, id)),
    }),
  );
  assert.equal(response.status, 200, await response.clone().text());
}

for (const backend of BACKENDS) {
  describe(`bullmqQueue as operators see it (${backend.on})`, { skip: backend.missing }, () => {
    it("names a job after its tool, with its tool and call id, its start BullMQ's, progress a percentage; keeps it once done", async () => {
      const name = `ops-${crypto.randomUUID()}`;
      const queue = backend.queue(name);
      const board = backend.board(name);
      let open = () => {};
      const { server, ids } = stepsServer(queue, new Promise<void>((resolve) => open = resolve));
      const worker = runWorker(server, { concurrency: 1 });
      try {
        const response = await server.fetch(
          new Request("http://localhost/mcp-lite/v1/calltools", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(toolsCall("steps", {}, "call-7")),
          }),
        );
        assert.equal(response.status, 200, await response.clone().text());
        assert.equal(ids.length, 1);
        const running = await jobUntil(board, ids[0], (job) => job?.progress === 33);
        assert.equal(running!.name, "steps");
        const { data, ...readable } = running!.data as Record<string, unknown>;
        assert.deepEqual(
          readable,
          { tool: "steps", callId: "call-7", attempt: 1 },
          "nothing written that BullMQ knows",
        );
        assert.equal(running!.stalledCounter, 0, "its first start, as BullMQ counts it");
        assert.equal(typeof data, "string", "the job itself stays sealed");
        assert.doesNotMatch(JSON.stringify(running!.data), /step 2/);
        open();
        await jobUntil(board, ids[0], (job) => job?.finishedOn !== undefined && job.failedReason === undefined);
        assert.equal(await board.getJobState(ids[0]), "completed", "kept once done (keepCompletedMs)");
      } finally {
        open();
        await worker.close();
        await Promise.all([queue.close(), board.close()]);
      }
    });

    it("a worker with concurrency 2 and four jobs that never end still runs a fifth (timeoutMs)", async () => {
      const name = `hung-${crypto.randomUUID()}`;
      const queue = backend.queue(name);
      const server = createServer({
        name: "operations",
        version: "1.0.0",
        secret: SECRET,
        logger: false, // their timeouts are said, one line each: the test below reads them
        resultStore: createMemoryResultStore(),
        queue,
      }).tool(
        defineTool("hang").describe("Never ends").input(v.object({ n: v.number() })).longRunning({ timeoutMs: 500 })
          .defer(() => new Promise<never>(() => {})),
      ).tool(defineTool("quick").describe("At once").longRunning().defer(() => "quick"));
      const worker = runWorker(server, { concurrency: 2 });
      // Redeemed until the job ends (or the redeem throws): 20 s at most, a bound for a loaded machine, not a measure.
      const redeemed = (token: string) =>
        readUntil(
          () => server.call("redeem", { promise: token }).catch((error: unknown) => error),
          (outcome) => (outcome as { kind?: string }).kind !== "promise",
          "the job's end",
          { timeoutMs: 20_000, everyMs: 50 },
        );
      try {
        const hung = [];
        for (let n = 0; n < 4; n++) hung.push(await server.call("hang", { n }) as { token: string });
        const fifth = await redeemed((await server.call("quick", {}) as { token: string }).token);
        assert.deepEqual((fifth as { result?: unknown }).result, { content: [{ type: "text", text: "quick" }] });
        for (const { token } of hung) {
          const ended = await redeemed(token);
          assert.equal((ended as { code?: string }).code, "deadline_exceeded", String(ended));
        }
      } finally {
        await worker.close();
        await queue.close();
      }
    });

    it("adds the MCP task's id to the job of a call that became a task, for operators to find it by", async () => {
      const name = `task-${crypto.randomUUID()}`;
      const queue = backend.queue(name);
      const board = backend.board(name);
      let open = () => {};
      const { server, ids } = stepsServer(queue, new Promise<void>((resolve) => open = resolve));
      try {
        const tasks = { extensions: { "io.modelcontextprotocol/tasks": {} } };
        const response = await server.fetch(
          modernRequest("tools/call", {
            name: "steps",
            arguments: {},
            _meta: { "io.modelcontextprotocol/clientCapabilities": tasks },
          }, "call-9"),
        );
        const { result } = await response.json();
        assert.equal(result?.resultType, "task", JSON.stringify(result));
        const job = await jobUntil(board, ids[0], (job) => job?.data.taskId !== undefined);
        assert.deepEqual(job!.data.taskId, result.taskId);
        assert.equal(job!.data.callId, "call-9");
      } finally {
        open();
        await Promise.all([queue.close(), board.close()]);
      }
    });

    it("fails a job whose work threw or timed out, with its reason, kept a day, never retried; one line each", async () => {
      const name = `failed-${crypto.randomUUID()}`;
      const queue = backend.queue(name);
      const board = backend.board(name);
      const { server, errors, ids } = failingServer(queue, false);
      const worker = runWorker(server, { concurrency: 2 });
      try {
        await callOver(server, "ledger", "call-7");
        await callOver(server, "hang", "call-8");
        const [threw, hung] = await Promise.all(
          ids.map((id) => jobUntil(board, id, (job) => job?.finishedOn !== undefined)),
        );
        assert.equal(await board.getJobState(ids[0]), "failed");
        assert.equal(threw!.failedReason, "ledger for s1 refused the write");
        assert.equal(await board.getJobState(ids[1]), "failed");
        assert.equal(hung!.failedReason, "The job timed out after 300 ms");
        for (const job of [threw!, hung!]) {
          assert.equal(job.attemptsMade, 1, "BullMQ's attempts never run it again: the server's retry decides");
          assert.deepEqual(job.opts.removeOnFail, { age: 86_400 }, "kept a day (keepFailedMs)");
        }
        // One line each, naming the tool, the call's request id, the job and its start (docs/concepts/errors.md).
        assert.deepEqual(errors.map(([fields]) => ({ ...fields, err: String(fields.err) })), [
          {
            err: "Error: ledger for s1 refused the write",
            tool: "ledger",
            requestId: "call-7",
            job: ids[0],
            attempt: 1,
          },
          {
            err: "ProtocolError: The job timed out after 300 ms",
            tool: "hang",
            requestId: "call-8",
            job: ids[1],
            attempt: 1,
          },
        ]);
      } finally {
        await worker.close();
        await Promise.all([queue.close(), board.close()]);
      }
    });

    it("under maskErrors, a failed job's reason is the reference its caller and its log line have", async () => {
      const name = `masked-${crypto.randomUUID()}`;
      const queue = backend.queue(name);
      const board = backend.board(name);
      const { server, errors, ids } = failingServer(queue, true);
      const worker = runWorker(server, { concurrency: 1 });
      try {
        await callOver(server, "ledger", 9);
        const failed = await jobUntil(board, ids[0], (job) => job?.finishedOn !== undefined);
        assert.equal(errors.length, 1);
        const { reference } = errors[0][0] as { reference: string };
        assert.equal(failed!.failedReason, `Internal error (reference ${reference})`);
        assert.doesNotMatch(JSON.stringify(failed!.toJSON()), /ledger for s1/);
      } finally {
        await worker.close();
        await Promise.all([queue.close(), board.close()]);
      }
    });

    it("fails a job that is not one the server made at once, never tried again, and warns once", async () => {
      const name = `forged-${crypto.randomUUID()}`;
      const queue = backend.queue(name);
      const board = backend.board(name);
      const { server, warnings, ids } = stepsServer(queue, Promise.resolve());
      const worker = runWorker(server, { concurrency: 1 });
      try {
        // A real job, altered as anyone who can write to the queue's backend could: its signature no longer holds.
        assert.equal((await server.call("steps", {})).kind, "promise");
        const sealed = (await jobUntil(board, ids[0], (job) => job !== undefined))!.data.data as string;
        const at = sealed.length - 5;
        const altered = sealed.slice(0, at) + (sealed[at] === "A" ? "B" : "A") + sealed.slice(at + 1);
        // And made up, with BullMQ's retries asked for.
        const forged = ["not a token", { data: "mcl1.forged" }, { no: "data" }, { data: altered }];
        const jobs = await Promise.all(
          forged.map((data, n) =>
            board.add("job", typeof data === "string" ? { data } : data, { jobId: `f${n}`, attempts: 20 })
          ),
        );
        for (const job of jobs) {
          const failed = await jobUntil(board, job.id!, (seen) => seen?.finishedOn !== undefined);
          assert.equal(await board.getJobState(job.id!), "failed");
          assert.equal(failed!.attemptsMade, 1, "never tried again");
          assert.match(failed!.failedReason, /refused/);
        }
        assert.equal(warnings.length, 1, JSON.stringify(warnings));
        assert.match(String(warnings[0][0]), /refused a queued job that is not one this server made/);
      } finally {
        await worker.close();
        await Promise.all([queue.close(), board.close()]);
      }
    });
  });
}

describe("bullmqQueue: a job whose worker died", { skip: REDIS_MISSING }, () => {
  it("names its new start in its data, and fails it out of starts, with one line naming that start", async () => {
    const name = `died-${crypto.randomUUID()}`;
    const connection = { url: servers.redis!.url };
    const board = new Queue(name, { connection });
    const queue = bullmqQueue({ connection: servers.redis!.url, name, lockMs: 300, onError: () => {} });
    const { server, errors, ids } = failingServer(queue, false);
    // A worker that takes the job and dies with it: its lock lapses, and BullMQ's stalled-job check hands it on.
    const dying = new Worker(name, () => new Promise<never>(() => {}), {
      connection,
      lockDuration: 300,
      stalledInterval: 300, // the stalled-job check it leaves behind is then its queue's next, not in 30 s
    });
    dying.on("error", () => {}); // its lock, gone
    let worker: { close(): Promise<void> } | undefined;
    try {
      await callOver(server, "ledger", "call-11");
      await jobUntil(board, ids[0], (job) => job?.processedOn !== undefined);
      await dying.close(true); // no lock renewed from now on, as after kill -9
      worker = runWorker(server, { concurrency: 1 });
      const failed = await jobUntil(board, ids[0], (job) => job?.finishedOn !== undefined);
      assert.equal(await board.getJobState(ids[0]), "failed");
      assert.equal(failed!.failedReason, "The instance running this job stopped before it finished");
      assert.equal(failed!.data.attempt, 2, "its second start, as the board reads it");
      assert.deepEqual(errors.map(([fields]) => [fields.tool, fields.requestId, fields.job, fields.attempt]), [
        ["ledger", "call-11", ids[0], 2],
      ]);
    } finally {
      await dying.close(true);
      await worker?.close();
      await Promise.all([queue.close(), board.close()]);
    }
  });
});

describe("bullmqQueue through an outage of redis-server longer than its lock", { skip: REDIS_MISSING }, () => {
  it("warns once that BullMQ lost its lock, never reports it as an error, and the job still ends", async () => {
    const name = `lock-${crypto.randomUUID()}`;
    const errors: unknown[] = [];
    const queue = bullmqQueue({
      connection: servers.redis!.url,
      name,
      lockMs: 300,
      onError: (error) => errors.push(error),
    });
    const board = new Queue(name, { connection: { url: servers.redis!.url } });
    let open = () => {};
    const { server, warnings, ids } = stepsServer(queue, new Promise<void>((resolve) => open = resolve));
    const worker = runWorker(server, { concurrency: 1 });
    try {
      await server.call("steps", {});
      await jobUntil(board, ids[0], (job) => job?.progress === 33);
      servers.redis!.pause(); // SIGSTOP: its keys' time runs on, the lock lapses
      // About time itself: an outage five times as long as the lock (300 ms), which lapses meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      servers.redis!.resume();
      open();
      await jobUntil(board, ids[0], (job) => job?.finishedOn !== undefined);
      await worker.close(); // BullMQ's worker stopped: every message of its about the job has been told
      const lock = /lock for job|Lock mismatch/;
      assert.deepEqual(errors.filter((error) => lock.test(String(error))).map(String), []);
      const told = warnings.filter((args) => lock.test(String(args[0])));
      assert.equal(told.length, 1, JSON.stringify(warnings));
    } finally {
      servers.redis!.resume();
      open();
      await worker.close();
      await Promise.all([queue.close(), board.close()]);
    }
  });
});

describe(
  "bullmqQueue on PostgreSQL: a progress update of a job BullMQ no longer holds",
  { skip: POSTGRES_MISSING },
  () => {
    it("is one warning, never an error", async () => {
      const name = `late-${crypto.randomUUID()}`;
      const errors: unknown[] = [];
      const warnings: string[] = [];
      const queue = bullmqQueue({
        backend: createPostgresBackend,
        connection: { connectionString: servers.postgres!.url, migrate: true },
        name,
        onError: (error) => errors.push(error),
      });
      const sql = new pg.Client({ connectionString: servers.postgres!.url });
      await sql.connect();
      let ran = () => {};
      const done = new Promise<void>((resolve) => ran = resolve);
      const late = /progress update of job late-1/;
      const taker = queue.take(async () => {
        // The job's row goes (as BullMQ's removal of a finished job takes it) while an update is on its way.
        await sql.query("DELETE FROM bullmq.job WHERE queue = $1 AND id = $2", [name, "late-1"]);
        queue.progress!("late-1", { progress: 1, total: 2, message: "half" });
        // The job runs on until the update's failure is told, as a warning or as an error.
        await waitFor(
          () =>
            warnings.some((message) => late.test(message)) ||
            errors.some((error) => /updateProgress/.test(String(error))),
          20_000,
          "the failed progress update told",
        );
        ran();
        return "done";
      }, { concurrency: 1, warn: (message) => warnings.push(message) });
      try {
        await queue.add("late-1", "sealed", { tool: "steps" });
        await done;
        await taker.close(); // stopped: whatever it had to tell of the job has been told
        assert.deepEqual(errors.filter((error) => /updateProgress/.test(String(error))).map(String), []);
        assert.deepEqual(warnings.filter((message) => late.test(message)).length, 1);
      } finally {
        await taker.close();
        await Promise.all([queue.close(), sql.end()]);
      }
    });
  },
);
