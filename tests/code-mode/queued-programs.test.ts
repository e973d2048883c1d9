/**
 * Code mode on a server with a BullMQ queue, over a real redis-server and a real PostgreSQL: a program still running
 * at `promiseAfterMs` is handed to a `mcplite worker` process, each of its calls a journaled step there. Its worker is `kill -9`'d inside the third call; a second worker
 * resumes the program from the top, the first two calls read back, not made again, and the official v2 client's call
 * (held while the job runs) gets the program's answer: each tool's effect counted once. On Redis, a program whose third
 * call is destructive pauses on the accepting side: its first two calls go to a worker with its job, which asks the
 * user (the v2 client's held call answers the elicitation) and ends the program, each call made once.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { serve } from "../../mod.ts";
import { codeModeServer, countKey, openKey, threeCalls } from "../helpers/code-mode-server.ts";
import { killQueueProcesses, logged, type QueueBackend, startWorkerOf } from "../helpers/queue-processes.ts";
import { queueBackends } from "../helpers/queue-backends.ts";
import { readUntil } from "../helpers/wait.ts";

/** BullMQ's lock on a running job: a killed worker's job moves on within one to two of these. */
const LOCK_MS = 3_000;

const servers = queueBackends("promised programs on workers");
after(killQueueProcesses);

const BACKENDS = [
  {
    name: "redis-server",
    missing: () => servers.redis ? false : "needs redis-server",
    backend: () => ({ url: servers.redis!.url, variable: "REDIS_URL" as const, counters: servers.redis!.url }),
  },
  {
    name: "PostgreSQL",
    missing: () => servers.redis && servers.postgres ? false : "needs redis-server (the counters) and PostgreSQL",
    backend: () => ({ url: servers.postgres!.url, variable: "DATABASE_URL" as const, counters: servers.redis!.url }),
  },
] as const;

for (const { name: on, missing, backend } of BACKENDS) {
  describe(`code mode on a queue (${on})`, () => {
    it("a promised program runs on a worker; killed in its third call, it resumes and calls each tool once", {
      timeout: 180_000,
    }, async (t) => {
      const reason = missing();
      if (reason) return t.skip(reason);
      const to = backend();
      const queue = `programs-${crypto.randomUUID()}`;
      const web = codeModeServer({ url: to.url, counters: to.counters, queue, lockMs: LOCK_MS });
      const listener = await serve(web.server, { port: 0, hostname: "127.0.0.1", quiet: true });
      const client = new ClientV2({ name: "v2", version: "2.4.0" }, {
        versionNegotiation: { mode: { pin: "2026-07-28" } },
      });
      try {
        const spec = { module: "tests/helpers/code-mode-server.ts", env: { COUNTER_URL: to.counters } };
        const processes: QueueBackend = { url: to.url, variable: to.variable, queue, lockMs: LOCK_MS };
        const first = await startWorkerOf(spec, processes);
        await client.connect(new TransportV2(new URL(`${listener.url}/mcp`)));
        // Held while the job runs: the official v2 client (2.4.0) has no task runtime.
        const answered = client.callTool({ name: "execute_code", arguments: { code: threeCalls(1) } });
        answered.catch(() => {}); // awaited below
        await logged([first], /^program 1 called c$/gm, 1);
        assert.match(first.log(), /called b$/m);
        first.kill("SIGKILL");
        await first.exited;
        const second = await startWorkerOf(spec, processes);
        await web.counters.set(openKey(queue), "1");
        const result = await answered;
        assert.deepEqual(result.structuredContent, { result: { a: 1, b: 1, c: 1, pid: second.pid }, logs: [] });
        assert.doesNotMatch(second.log(), /called [ab]$/m, "a and b were read back, not called again");
        const counts = await Promise.all(["a", "b", "c"].map((name) => web.counters.get(countKey(queue, 1, name))));
        assert.deepEqual(counts, ["1", "1", "1"]);
      } finally {
        await client.close();
        await listener.close();
        await web.close();
      }
    });
  });
}

describe("code mode on a queue (redis-server): approval that pauses", () => {
  it("a program paused at its third call goes to a worker, which asks the held call and ends it; a, b made once", {
    timeout: 180_000,
  }, async (t) => {
    if (!servers.redis) return t.skip("needs redis-server");
    const url = servers.redis.url;
    const queue = `approvals-${crypto.randomUUID()}`;
    // Programs answer inline for a minute: this one is handed over because its third call asks the user.
    const web = codeModeServer({ url, counters: url, queue, lockMs: LOCK_MS, promiseAfterMs: 60_000 });
    const listener = await serve(web.server, { port: 0, hostname: "127.0.0.1", quiet: true });
    const client = new ClientV2({ name: "v2", version: "2.4.0" }, { capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", (request) => {
      asked.push(String((request.params as { message: string }).message));
      return { action: "accept", content: {} } as never;
    });
    try {
      const spec = { module: "tests/helpers/code-mode-server.ts", env: { COUNTER_URL: url } };
      const worker = await startWorkerOf(spec, { url, variable: "REDIS_URL", queue, lockMs: LOCK_MS });
      await client.connect(new TransportV2(new URL(`${listener.url}/mcp`)));
      const code = "const a = await tools.a({ n: 2 });\nconst b = await tools.b({ n: 2 });\n" +
        "const d = await tools.d({ n: 2 });\nreturn { a, b, d, pid: await tools.pid() };";
      const result = await client.callTool({ name: "execute_code", arguments: { code } });
      assert.deepEqual(result.structuredContent, { result: { a: 1, b: 1, d: 1, pid: worker.pid }, logs: [] });
      assert.equal(asked.length, 1);
      assert.match(asked[0], /^A program wants to call "d", which may delete or overwrite data/);
      assert.match(worker.log(), /^program 2 called d$/m);
      assert.doesNotMatch(worker.log(), /called [ab]$/m, "a and b were made on the accepting side, read back here");
      const counts = await Promise.all(["a", "b", "d"].map((name) => web.counters.get(countKey(queue, 2, name))));
      assert.deepEqual(counts, ["1", "1", "1"]);
    } finally {
      await client.close();
      await listener.close();
      await web.close();
    }
  });
  it("a worker kill -9'd while the user decides changes nothing, without retry: the pause is a durable wait", {
    timeout: 180_000,
  }, async (t) => {
    if (!servers.redis) return t.skip("needs redis-server");
    const url = servers.redis.url;
    const queue = `approvals-${crypto.randomUUID()}`;
    const web = codeModeServer({ url, counters: url, queue, lockMs: LOCK_MS, retry: false }); // on a worker at once
    const listener = await serve(web.server, { port: 0, hostname: "127.0.0.1", quiet: true });
    const client = new ClientV2({ name: "v2", version: "2.4.0" }, { capabilities: { elicitation: { form: {} } } });
    let asked = 0, decide = () => {};
    const decided = new Promise<void>((resolve) => decide = resolve);
    client.setRequestHandler("elicitation/create", async () => {
      asked++;
      await decided; // the person takes their time
      return { action: "accept", content: {} } as never;
    });
    try {
      const spec = { module: "tests/helpers/code-mode-server.ts", env: { COUNTER_URL: url, CODE_MODE_RETRY: "0" } };
      const processes: QueueBackend = { url, variable: "REDIS_URL", queue, lockMs: LOCK_MS };
      const first = await startWorkerOf(spec, processes);
      await client.connect(new TransportV2(new URL(`${listener.url}/mcp`)));
      const code = "const a = await tools.a({ n: 4 });\nconst d = await tools.d({ n: 4 });\n" +
        "return { a, d, pid: await tools.pid() };";
      const answered = client.callTool({ name: "execute_code", arguments: { code } });
      answered.catch(() => {}); // awaited below
      await readUntil(() => asked, (n) => n === 1, "the user asked about d", { timeoutMs: 60_000, everyMs: 50 });
      // The program waits for the answer in its job's journal, not in a worker: killing it loses nothing, and the
      // job is no start short (no retry is set: a start after a death would end it stopped).
      first.kill("SIGKILL");
      await first.exited;
      const second = await startWorkerOf(spec, processes);
      decide();
      const result = await answered;
      assert.deepEqual(
        result.structuredContent,
        { result: { a: 1, d: 1, pid: second.pid }, logs: [] },
        JSON.stringify(result),
      );
      assert.equal(asked, 1);
      assert.match(second.log(), /^program 4 called d$/m);
      const counts = await Promise.all(["a", "d"].map((name) => web.counters.get(countKey(queue, 4, name))));
      assert.deepEqual(counts, ["1", "1"]);
    } finally {
      decide();
      await client.close();
      await listener.close();
      await web.close();
    }
  });

  it("a worker killed after an allowed call: the next one reads the call and its answer back, and does not ask again", {
    timeout: 180_000,
  }, async (t) => {
    if (!servers.redis) return t.skip("needs redis-server");
    const url = servers.redis.url;
    const queue = `approvals-${crypto.randomUUID()}`;
    const web = codeModeServer({ url, counters: url, queue, lockMs: LOCK_MS }); // promised at once: on a worker
    const listener = await serve(web.server, { port: 0, hostname: "127.0.0.1", quiet: true });
    const client = new ClientV2({ name: "v2", version: "2.4.0" }, { capabilities: { elicitation: { form: {} } } });
    let asked = 0;
    client.setRequestHandler("elicitation/create", () => {
      asked++;
      return { action: "accept", content: {} } as never;
    });
    try {
      const spec = { module: "tests/helpers/code-mode-server.ts", env: { COUNTER_URL: url } };
      const processes: QueueBackend = { url, variable: "REDIS_URL", queue, lockMs: LOCK_MS };
      const first = await startWorkerOf(spec, processes);
      await client.connect(new TransportV2(new URL(`${listener.url}/mcp`)));
      const code = "const a = await tools.a({ n: 3 });\nconst d = await tools.d({ n: 3 });\n" +
        "const c = await tools.c({ n: 3 });\nreturn { a, d, c, pid: await tools.pid() };";
      const answered = client.callTool({ name: "execute_code", arguments: { code } });
      answered.catch(() => {}); // awaited below
      await logged([first], /^program 3 called c$/gm, 1); // d was allowed and made: c waits at its gate
      first.kill("SIGKILL");
      await first.exited;
      const second = await startWorkerOf(spec, processes);
      await web.counters.set(openKey(queue), "1");
      const result = await answered;
      assert.deepEqual(result.structuredContent, { result: { a: 1, d: 1, c: 1, pid: second.pid }, logs: [] });
      assert.equal(asked, 1, "the answer was read back with d's step");
      assert.doesNotMatch(second.log(), /called [ad]$/m);
      const counts = await Promise.all(["a", "d", "c"].map((name) => web.counters.get(countKey(queue, 3, name))));
      assert.deepEqual(counts, ["1", "1", "1"]);
    } finally {
      await client.close();
      await listener.close();
      await web.close();
    }
  });
});
