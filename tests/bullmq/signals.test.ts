/**
 * Declared work that waits for a signal on a queue: the job goes back to the queue while it waits (a worker of
 * concurrency 1 runs another job meanwhile), and resumes at once on a POST to its signal URL (a real `fetch`) or on
 * `server.signal()` from a second instance sharing the store and queue; a wait nobody answers ends with its
 * `WaitTimeoutError`, final (uncaught, the job fails unretried). On the queue in memory of the tests, and on BullMQ
 * over a real redis-server and a real PostgreSQL (its store Redis's, or PostgreSQL's). In process: tests/jobs/signals.test.ts.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import {
  type CallOutcome,
  createMemoryResultStore,
  createServer,
  defineTool,
  type ResultStore,
  runWorker,
  serve,
  signals,
} from "../../mod.ts";
import type { Listener, WorkQueue } from "../../src/types.ts";
import { WaitTimeoutError } from "../../src/errors/mod.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";
import { queueBackends } from "../helpers/queue-backends.ts";
import { queueAndStore } from "../helpers/queue-store.ts";
import { answered, ended, failedWith } from "../helpers/outcome.ts";
import { postWithTasks, taskEnded } from "../helpers/request.ts";
import { readUntil } from "../helpers/wait.ts";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client";

// The v1 SDK maps its subpaths with `./*` to `*.d.ts`, which Deno's type checker does not resolve for a
// `.js` specifier: load it by a computed specifier (typed here by hand), as tests/bullmq/clients.test.ts does.
const V1 = "@modelcontextprotocol/sdk";
const { StreamableHTTPClientTransport: TransportV1 } = await import(`${V1}/client/streamableHttp.js`) as {
  StreamableHTTPClientTransport: new (url: URL) => Parameters<ClientV1["connect"]>[0];
};

const SECRET = "queued signals' secret: thirty-two bytes or more";
/** How long a job may take to end once signalled: a bound for a loaded machine, not a measure. */
const END_MS = 30_000;

const servers = queueBackends("signals on a queue");

/** One backend: a store and a queue for each instance (the same ones, as seen from another process). */
interface Backend {
  readonly on: string;
  /** The server it needs, which the file's `before()` starts where it is installed. */
  readonly needs?: "redis" | "postgres";
  open(queue: string): { resultStore: ResultStore; queue: WorkQueue; close(): Promise<void> };
}

const memory = () => {
  const store = createMemoryResultStore(), { queue } = memoryQueue();
  return (_name: string) => ({ resultStore: store, queue, close: () => Promise.resolve() });
};
let inMemory = memory();
const BACKENDS: Backend[] = [
  { on: "memory", open: (name) => inMemory(name) },
  {
    on: "BullMQ on redis-server",
    needs: "redis",
    open: (queue) => queueAndStore({ url: servers.redis!.url, queue, lockMs: 5_000 }),
  },
  {
    on: "BullMQ on PostgreSQL",
    needs: "postgres",
    open: (queue) => queueAndStore({ url: servers.postgres!.url, queue, lockMs: 5_000 }),
  },
];

/** The signal URL each call's work made, by its `n`. */
const urls = new Map<number, PromiseWithResolvers<string>>();
const urlOf = (n: number) => (urls.get(n) ?? urls.set(n, Promise.withResolvers()).get(n)!).promise;

/** The \`work.attempt\` each start of a \`strict\` call saw, by its \`n\`. */
const attempts = new Map<number, number[]>();

/** A server (one instance) on `backend`'s store and queue, its signal URLs under `publicUrl`. */
function instance(opened: { resultStore: ResultStore; queue: WorkQueue }, publicUrl: string) {
  return createServer({
    name: "approvals",
    version: "1.0.0",
    secret: SECRET,
    ...opened,
    signals: signals({ publicUrl }),
  })
    .tool(
      defineTool("approve").describe("Waits for an approval").input(v.object({ n: v.number(), timeoutMs: v.number() }))
        .longRunning({ ttlMs: 120_000 })
        .defer(async ({ n, timeoutMs }, work) => {
          const url = await work.step("ask", () => work.signalUrl("approved"));
          urlOf(n);
          urls.get(n)!.resolve(url);
          try {
            const { by } = await work.waitFor("approved", { timeoutMs, schema: v.object({ by: v.string() }) });
            return { n, by };
          } catch (error) {
            if (!(error instanceof WaitTimeoutError)) throw error;
            return { n, by: `nobody in ${error.timeoutMs} ms` };
          }
        }),
    )
    .tool(
      defineTool("strict").describe("Waits, not catching its timeout").input(v.object({ n: v.number() }))
        .longRunning({ ttlMs: 120_000, retry: { attempts: 3 } })
        .defer(async ({ n }, work) => {
          attempts.set(n, [...attempts.get(n) ?? [], work.attempt]);
          return await work.waitFor("approved", { timeoutMs: 300 });
        }),
    )
    .tool(
      defineTool("quick").describe("Answers").input(v.object({ n: v.number() })).longRunning().defer(({ n }) => ({
        n,
      })),
    );
}

for (const backend of BACKENDS) {
  describe(`work.waitFor() on a queue (${backend.on})`, () => {
    let listener: Listener | undefined;
    let web: ReturnType<typeof instance> | undefined;
    before(async () => {
      listener = await serve({ fetch: (request: Request) => web!.fetch(request) }, {
        port: 0,
        hostname: "127.0.0.1",
        quiet: true,
      });
    });
    after(async () => await listener?.close());

    it(
      "holds no slot while it waits; a POST to its URL and server.signal() on a second instance resume it; a timeout ends it",
      {
        timeout: 120_000,
      },
      async (t) => {
        if (backend.needs !== undefined && servers[backend.needs] === undefined) {
          return t.skip(`needs ${backend.needs}`);
        }
        inMemory = memory();
        const name = `signals-${crypto.randomUUID()}`;
        const [a, b, w] = [backend.open(name), backend.open(name), backend.open(name)];
        web = instance(a, listener!.url);
        const second = instance(b, listener!.url);
        const worker = runWorker(instance(w, listener!.url), { concurrency: 1 });
        try {
          const base = 100 * Math.floor(Math.random() * 1e6);
          // 1: waits for a POST to its URL, while another job takes the one slot.
          const first = await web.call("approve", { n: base + 1, timeoutMs: 60_000 });
          const url = await urlOf(base + 1);
          assert.deepEqual(answered(await ended(web, await web.call("quick", { n: 7 }), END_MS)), { n: 7 });
          const posted = await fetch(url, { method: "POST", body: JSON.stringify({ by: "ada" }) });
          assert.equal(posted.status, 202, await posted.text());
          const replayed = await fetch(url, { method: "POST", body: JSON.stringify({ by: "eve" }) });
          assert.equal(replayed.status, 409, await replayed.text());
          assert.deepEqual(answered(await ended(web, first, END_MS)), { n: base + 1, by: "ada" });
          // 2: signalled on the second instance, by the job's id.
          const called = await web.call("approve", { n: base + 2, timeoutMs: 60_000 });
          await urlOf(base + 2);
          const job = (called as Extract<CallOutcome, { kind: "promise" }>).entry!;
          assert.equal(await second.signal(job, "approved", { by: "bob" }), "taken");
          // Woken by the signal, not at its deadline (60 s), which would have answered "nobody in 60000 ms".
          assert.deepEqual(
            answered(await ended(web, called, END_MS)),
            { n: base + 2, by: "bob" },
            "woken by the signal",
          );
          // 3: nobody answers.
          const unanswered = await web.call("approve", { n: base + 3, timeoutMs: 300 });
          assert.deepEqual(answered(await ended(web, unanswered, END_MS)), { n: base + 3, by: "nobody in 300 ms" });
          assert.equal(
            await second.signal((unanswered as { entry?: string }).entry!, "approved", { by: "late" }),
            "timed_out",
          );
          // 4: a timeout the work does not catch ends the job, not retried (its tool allows 3 attempts).
          const strict = await web.call("strict", { n: base + 4 });
          assert.match(failedWith(await ended(web, strict, END_MS)), /No signal "approved" came within 300 ms/);
          assert.ok(attempts.get(base + 4)!.every((attempt) => attempt === 1), `${attempts.get(base + 4)}`);
        } finally {
          await worker.close();
          await Promise.all([a.close(), b.close(), w.close()]);
        }
      },
    );

    it("MCP: a task says what it waits for (tasks/get), and the official v1 client's held call sees the job end", {
      timeout: 120_000,
    }, async (t) => {
      if (backend.needs !== undefined && servers[backend.needs] === undefined) return t.skip(`needs ${backend.needs}`);
      inMemory = memory();
      const name = `signals-mcp-${crypto.randomUUID()}`;
      const [a, w] = [backend.open(name), backend.open(name)];
      web = instance(a, listener!.url);
      const worker = runWorker(instance(w, listener!.url), { concurrency: 1 });
      const v1 = new ClientV1({ name: "v1", version: "1.32.2" });
      try {
        const base = 100 * Math.floor(Math.random() * 1e6);
        // MCP 2026-07-28 with the tasks extension: the task, working, says it waits for the signal.
        const endpoint = `${listener!.url}/mcp`;
        const created = await postWithTasks(endpoint, "tools/call", {
          name: "approve",
          arguments: { n: base + 1, timeoutMs: 60_000 },
        });
        assert.equal(created.result?.resultType, "task", JSON.stringify(created));
        const task = await readUntil(
          async () => (await postWithTasks(endpoint, "tasks/get", { taskId: created.result.taskId })).result,
          (task) => task.statusMessage !== undefined,
          "the task's status message",
          { timeoutMs: 20_000, everyMs: 50 },
        );
        assert.deepEqual([task.status, task.statusMessage], ["working", 'Waiting for the signal "approved"']);
        assert.equal((await fetch(await urlOf(base + 1), { method: "POST", body: '{"by":"ada"}' })).status, 202);
        const done = await taskEnded(endpoint, created.result.taskId);
        assert.equal(done.status, "completed", JSON.stringify(done));
        assert.deepEqual(done.result?.structuredContent, { n: base + 1, by: "ada" });
        // MCP 2025-11-25, the official v1 client (no tasks): its call is held while the job waits, and ends with it.
        await v1.connect(new TransportV1(new URL(endpoint)));
        const held = v1.callTool({ name: "approve", arguments: { n: base + 2, timeoutMs: 60_000 } }, undefined, {
          timeout: 60_000,
        });
        assert.equal((await fetch(await urlOf(base + 2), { method: "POST", body: '{"by":"bob"}' })).status, 202);
        assert.deepEqual((await held).structuredContent, { n: base + 2, by: "bob" });
      } finally {
        await v1.close();
        await worker.close();
        await Promise.all([a.close(), w.close()]);
      }
    });
  });
}
