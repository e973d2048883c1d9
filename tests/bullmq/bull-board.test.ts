/**
 * What Bull Board shows of queued work, read through the real `@bull-board/api` (its routes' handlers, as its UI calls
 * them, without a web framework): a call whose work threw and one that ran past its `timeoutMs` are listed as failed
 * with their reasons, and a job's log holds the start and end of each of its steps; its Retry on a failed call runs it
 * again as a new run (issue 100, item 5); on a real redis-server and a real PostgreSQL (BullMQ's Postgres backend), each
 * started by the test.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import type { Queue } from "bullmq";
import * as v from "valibot";
import { defineTool, runWorker } from "../../mod.ts";
import { attachListener } from "../../src/binding.ts";
import { registryOf } from "../../src/core/definitions/registry.ts";
import { continuationsOf } from "../../src/jobs/continuations.ts";
import { bullmqBackends, queueBackends } from "../helpers/queue-backends.ts";
import { hang, jobUntil, ledger, queuedInProcess } from "../helpers/queued-in-process.ts";

const servers = queueBackends("Bull Board");

const BACKENDS = bullmqBackends(servers);

/** A route of Bull Board's API, as its server adapters are handed them. */
interface Route {
  readonly method: string | string[];
  readonly route: string | string[];
  handler(request: Record<string, unknown>): Promise<{ status?: number; body: unknown }>;
}

/**
 * Bull Board's API over `queue`, as a server adapter (Express, Hono, …) would serve it: `get(path, query)` runs the
 * handler of the route that matches (a `method` other than `get` for its actions: `put` for Retry), with the request
 * Bull Board's adapters make.
 */
function boardApi(queue: Queue) {
  let routes: Route[] = [];
  let queues: unknown;
  const adapter = {
    setQueues: (value: unknown) => (queues = value, adapter),
    setViewsPath: () => adapter,
    setStaticPath: () => adapter,
    setEntryRoute: () => adapter,
    setErrorHandler: () => adapter,
    setApiRoutes: (value: Route[]) => (routes = value, adapter),
    setUIConfig: () => adapter,
  };
  // `uiBasePath`: the UI's files are never read here (no page is served).
  createBullBoard({
    queues: [new BullMQAdapter(queue)],
    serverAdapter: adapter as never,
    options: { uiBasePath: ".", uiConfig: {} },
  });
  return async (path: string, query: Record<string, string> = {}, method = "get") => {
    for (const route of routes) {
      if (route.method !== method) continue;
      for (const pattern of [route.route].flat()) {
        const names: string[] = [];
        const source = pattern.replace(/:(\w+)/g, (_, name) => (names.push(name), "([^/]+)"));
        const match = new RegExp(`^${source}$`).exec(path);
        if (match === null) continue;
        const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
        const answer = await route.handler({ queues, params, query, body: {}, headers: {} });
        assert.ok(
          answer.status === undefined || answer.status === 200 || answer.status === 204,
          JSON.stringify(answer),
        );
        return answer.body;
      }
    }
    throw new Error(`no route for ${path}`);
  };
}

for (const backend of BACKENDS) {
  describe(`Bull Board over a server's queue (${backend.on})`, { skip: backend.missing }, () => {
    it("lists a thrown and a timed-out call as failed with their reasons, and a job's log shows its steps", async () => {
      const name = `board-${crypto.randomUUID()}`;
      const queue = backend.queue(name);
      const board = backend.board(name);
      // No logger: the failures' lines are tests/bullmq/operations.test.ts's to read.
      const { server: bare, ids } = queuedInProcess("board", queue, { logger: false });
      const server = bare.tool(ledger).tool(hang).tool(
        defineTool("report").describe("Two steps").input(v.object({})).longRunning().defer(async (_, work) => {
          const rows = await work.step("fetch", () => [{ id: 1 }, { id: 2 }]);
          return await work.step("render", () => `${rows.length} rows`);
        }),
      );
      const worker = runWorker(server, { concurrency: 2 });
      try {
        for (const tool of ["ledger", "hang", "report"] as const) {
          assert.equal((await server.call(tool, {})).kind, "promise");
        }
        const [threw, hung, report] = ids;
        await Promise.all(ids.map((id) => jobUntil(board, id, (job) => job?.finishedOn !== undefined)));
        const api = boardApi(board);

        const listed = await api("/api/queues", { activeQueue: name, status: "failed", page: "1", jobsPerPage: "10" });
        const [shown] = (listed as { queues: { name: string; jobs: Record<string, unknown>[] }[] }).queues;
        assert.equal(shown.name, name);
        const failed = Object.fromEntries(shown.jobs.map((job) => [job.id, job]));
        assert.deepEqual(Object.keys(failed).sort(), [threw, hung].sort(), "the failed jobs, and only they");
        assert.equal(failed[threw].failedReason, "ledger for s1 refused the write");
        assert.equal(failed[threw].isFailed, true);
        assert.equal(failed[hung].failedReason, "The job timed out after 300 ms");
        assert.equal(failed[hung].name, "hang");

        const logs = await api(`/api/queues/${encodeURIComponent(name)}/${report}/logs`) as string[];
        assert.equal(logs.length, 4, JSON.stringify(logs));
        assert.equal(logs[0], 'attempt 1: step "fetch" started');
        assert.match(logs[1], /^attempt 1: step "fetch" ended after \d+ ms, 19 B of JSON$/);
        assert.equal(logs[2], 'attempt 1: step "render" started');
        assert.match(logs[3], /^attempt 1: step "render" ended after \d+ ms, 8 B of JSON$/);
      } finally {
        await worker.close();
        await Promise.all([queue.close(), board.close()]);
      }
    });

    it("Retry on a failed call runs it again as a new run, its completed steps kept; its caller's failure stands", async () => {
      const name = `board-${crypto.randomUUID()}`;
      const queue = backend.queue(name);
      const board = backend.board(name);
      const runs = { fetch: 0, write: 0 };
      const { server: bare, ids } = queuedInProcess("board", queue, { logger: false });
      const server = bare.tool(
        defineTool("flaky").describe("Fetches, then writes; its first write fails").input(v.object({})).longRunning()
          .defer(async (_, work) => {
            const rows = await work.step("fetch", () => (runs.fetch++, 2));
            return await work.step("write", () => {
              if (++runs.write === 1) throw new Error("the ledger is busy");
              return `${rows} rows written`;
            });
          }),
      );
      const worker = runWorker(server, { concurrency: 2 });
      try {
        const called = await server.call("flaky", {});
        assert.equal(called.kind, "promise");
        const [failed] = ids;
        // Failed, and marked so once BullMQ recorded it (what tells an operator's Retry from a delivery cut short).
        await jobUntil(board, failed, (job) => (job?.data as { failed?: true } | undefined)?.failed === true);
        await boardApi(board)(`/api/queues/${encodeURIComponent(name)}/${failed}/retry`, {}, "put");
        const done = await jobUntil(board, failed, (job) => job?.finishedOn !== undefined && !job.failedReason);
        assert.equal(await done!.getState(), "completed", "where operators look, the job ended as its new run did");
        assert.deepEqual(runs, { fetch: 1, write: 2 }, "its completed step kept its value: only the write ran again");
        const engine = continuationsOf(registryOf(attachListener(server).core).runtime);
        const rerun = ids[1];
        assert.ok(rerun !== undefined && rerun !== failed, "a new run, under a new id");
        const entry = await engine.results.get(rerun);
        assert.equal(entry?.status === "completed" && entry.result.isError, undefined, JSON.stringify(entry));
        assert.match(JSON.stringify(entry), /2 rows written/);
        // Its caller's failure stands (an MCP task's terminal status never changes): the old run's entry as it ended.
        const read = called.kind === "promise" ? await server.call("redeem", { promise: called.token }) : called;
        assert.equal(read.kind, "failure");
        assert.match(JSON.stringify(read), /the ledger is busy/);
        // Retry on the completed job: nothing runs again, and it stays completed.
        await boardApi(board)(`/api/queues/${encodeURIComponent(name)}/${failed}/retry`, {}, "put");
        const again = await jobUntil(board, failed, (job) => job?.finishedOn !== undefined && !job.failedReason);
        assert.equal(await again!.getState(), "completed");
        assert.deepEqual(runs, { fetch: 1, write: 2 });
      } finally {
        await worker.close();
        await Promise.all([queue.close(), board.close()]);
      }
    });
  });
}
