/**
 * What Bull Board shows of queued work, read through the real `@bull-board/api` (its routes' handlers, as its UI calls
 * them, without a web framework): a call whose work threw and one that ran past its `timeoutMs` are listed as failed
 * with their reasons, and a job's log holds the start and end of each of its steps; on a real redis-server and a real
 * PostgreSQL (BullMQ's Postgres backend), each started by the test.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import type { Queue } from "bullmq";
import * as v from "valibot";
import { defineTool, runWorker } from "../../mod.ts";
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
 * handler of the route that matches, with the request Bull Board's adapters make.
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
  return async (path: string, query: Record<string, string> = {}) => {
    for (const route of routes) {
      if (route.method !== "get") continue;
      for (const pattern of [route.route].flat()) {
        const names: string[] = [];
        const source = pattern.replace(/:(\w+)/g, (_, name) => (names.push(name), "([^/]+)"));
        const match = new RegExp(`^${source}$`).exec(path);
        if (match === null) continue;
        const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
        const answer = await route.handler({ queues, params, query, body: {}, headers: {} });
        assert.ok(answer.status === undefined || answer.status === 200, JSON.stringify(answer));
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
  });
}
