/**
 * Workers on BullMQ, on a real redis-server and on a real PostgreSQL (BullMQ's Postgres backend, the results in
 * `postgresResultStore`), each started by the test: the test process is the web instance (`createServer({ queue })`
 * answers every call of a `.longRunning()` tool with its promise at once); `mcplite worker` processes
 * (the runtime running the tests) take the jobs. A worker `kill -9`'d mid-run: BullMQ's stalled-job check
 * hands its jobs to the other worker, with no client asking; a job without `retry` ends as stopped; a
 * worker that gets SIGTERM drains.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { createPostgresBackend, Queue, withBackend } from "bullmq";
import type { CallOutcome } from "../../mod.ts";
import { STOPPED_MESSAGE } from "../../src/core/continuations.ts";
import { queuedServer } from "../helpers/queued-server.ts";
import { ROOT } from "../helpers/process.ts";
import { POSTGRES_MISSING, startPostgres } from "../helpers/postgres-server.ts";
import { REDIS_MISSING, startRedis } from "../helpers/redis-server.ts";
import type { ServerProcess } from "../helpers/server-process.ts";
import { runtimeCommand } from "../helpers/stdio.ts";

/** The backends: BullMQ and the result store on each, and the variable a worker reads its URL from. */
const BACKENDS = [
  { name: "redis-server", missing: REDIS_MISSING, start: startRedis, variable: "REDIS_URL" },
  { name: "PostgreSQL", missing: POSTGRES_MISSING, start: startPostgres, variable: "DATABASE_URL" },
] as const;
for (const { name, missing } of BACKENDS) if (missing) console.error(`bullmq workers on ${name}: skipped: ${missing}`);

/** BullMQ's lock on a running job: a killed worker's jobs move on within one to two of these. */
const LOCK_MS = 1_500;
/** How long a worker may take to start (a runtime loading the SDK, on a loaded machine). */
const START_MS = 60_000;

const workers = new Set<Worker>();

after(async () => {
  for (const worker of workers) worker.kill("SIGKILL");
  await Promise.all([...workers].map((worker) => worker.exited));
});

interface Worker {
  readonly pid: number;
  /** The exit code, once it exited (`null` after a signal). */
  readonly exited: Promise<number | null>;
  /** What it wrote on stderr. */
  readonly log: () => string;
  kill(signal: NodeJS.Signals): void;
}

/** Where the workers of a test find their queue and store. */
interface Backend {
  readonly url: string;
  /** The environment variable `tests/helpers/queued-server.ts` reads the URL from. */
  readonly variable: string;
}

/** Starts `mcplite worker` on the queue; resolves once it takes jobs. */
async function startWorker(backend: Backend, queue: string, ...options: string[]): Promise<Worker> {
  const { command, args } = runtimeCommand("src/cli/main.ts");
  const child: ChildProcess = spawn(command, [...args, "worker", "tests/helpers/queued-server.ts", ...options], {
    cwd: ROOT,
    env: { ...process.env, [backend.variable]: backend.url, QUEUE: queue, LOCK_MS: String(LOCK_MS) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const worker: Worker = { pid: child.pid!, exited, log: () => log, kill: (signal) => child.kill(signal) };
  workers.add(worker);
  exited.then(() => workers.delete(worker));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the worker did not start in ${START_MS} ms:\n${log}`)), START_MS);
    child.stderr!.on("data", (chunk) => {
      log += String(chunk);
      if (log.includes("taking jobs")) {
        clearTimeout(timer);
        resolve();
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the worker exited with ${code}:\n${log}`));
    });
  });
  return worker;
}

/**
 * Waits for a worker sent SIGTERM to exit, and asserts it drained and exited 0. Deno's `node:child_process`
 * reports a child that was sent a signal as ended by it (code `null`) even when it exited 0 itself.
 */
async function assertDrained(worker: Worker): Promise<void> {
  const code = await worker.exited;
  assert.match(worker.log(), /drained\n$/, worker.log());
  if (!("Deno" in globalThis)) assert.equal(code, 0, worker.log());
}

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

/** Waits until BullMQ holds no job of the queue (waiting, active or delayed), at most `timeoutMs`. */
async function drained(url: string, name: string, timeoutMs: number): Promise<void> {
  const { hostname, port } = new URL(url);
  const queue = url.startsWith("redis:")
    ? new Queue(name, { connection: { host: hostname, port: Number(port) } })
    : new (withBackend(createPostgresBackend).Queue)(name, { connection: { connectionString: url } });
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const counts = await queue.getJobCounts("waiting", "active", "delayed", "prioritized");
      if (Object.values(counts).every((n) => n === 0)) return;
      if (Date.now() > deadline) assert.fail(`jobs still queued after ${timeoutMs} ms: ${JSON.stringify(counts)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await queue.close();
  }
}

/** Redeems until the job ends, at most `timeoutMs`. */
async function redeemed(
  server: { call(name: string, args: unknown): Promise<CallOutcome> },
  token: string,
  timeoutMs: number,
): Promise<CallOutcome> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outcome = await server.call("redeem", { promise: token });
    if (outcome.kind !== "promise") return outcome;
    if (Date.now() > deadline) assert.fail(`the job did not end in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

for (const { name: on, missing, start, variable } of BACKENDS) {
  describe(`runWorker on BullMQ (${on}): jobs outlive the process that runs them`, { skip: missing }, () => {
    let server: ServerProcess | undefined;
    let backend: Backend;
    before(async () => {
      server = await start();
      backend = { url: server.url, variable };
    });
    after(() => server?.stop());

    it("kill -9 one of two workers mid-run: each of 20 calls gets its own result, with no client asking meanwhile", async () => {
      const name = `kill-${crypto.randomUUID()}`;
      const web = queuedServer({ url: backend.url, queue: name, lockMs: LOCK_MS });
      try {
        const [a, b] = await Promise.all([
          startWorker(backend, name, "--concurrency", "10"),
          startWorker(backend, name, "--concurrency", "10"),
        ]);
        const tokens = [];
        for (let n = 0; n < 20; n++) tokens.push(tokenOf(await web.server.call("slow", { n, ms: 3_000 })));
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        a.kill("SIGKILL"); // mid-run: each job takes 3 s
        await a.exited;
        // Nobody redeems: BullMQ's stalled-job check gives the dead worker's jobs to the live one.
        await drained(backend.url, name, 60_000);
        const answers = [];
        for (const token of tokens) answers.push(answerOf(await web.server.call("redeem", { promise: token })));
        assert.deepEqual(answers.map((answer) => answer.n), [...Array(20).keys()], JSON.stringify(answers));
        assert.ok(answers.every((answer) => answer.pid === b.pid), "the killed worker finished nothing");
      } finally {
        await web.close();
      }
    });

    it("a job without retry whose worker dies ends as stopped, once the queue hands it to another worker", async () => {
      const name = `stopped-${crypto.randomUUID()}`;
      const web = queuedServer({ url: backend.url, queue: name, lockMs: LOCK_MS });
      try {
        const a = await startWorker(backend, name);
        const token = tokenOf(await web.server.call("fragile", { n: 1, ms: 3_000 }));
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        a.kill("SIGKILL");
        await a.exited;
        await startWorker(backend, name);
        const answer = answerOf(await redeemed(web.server, token, 30_000));
        assert.equal(answer.error, STOPPED_MESSAGE);
      } finally {
        await web.close();
      }
    });

    it("SIGTERM drains: a running job finishes on the worker, which then exits 0", async () => {
      const name = `drain-${crypto.randomUUID()}`;
      const web = queuedServer({ url: backend.url, queue: name, lockMs: LOCK_MS });
      try {
        const a = await startWorker(backend, name, "--drain-ms", "20000");
        const token = tokenOf(await web.server.call("fragile", { n: 7, ms: 1_500 }));
        await new Promise((resolve) => setTimeout(resolve, 500));
        a.kill("SIGTERM");
        await assertDrained(a);
        assert.match(a.log(), /draining 1 running job/);
        assert.deepEqual(answerOf(await web.server.call("redeem", { promise: token })), { n: 7, pid: a.pid });
      } finally {
        await web.close();
      }
    });

    it("SIGTERM past --drain-ms gives the job back to the queue, and another worker runs it again", async () => {
      const name = `handback-${crypto.randomUUID()}`;
      const web = queuedServer({ url: backend.url, queue: name, lockMs: LOCK_MS });
      try {
        const a = await startWorker(backend, name, "--drain-ms", "100");
        const token = tokenOf(await web.server.call("slow", { n: 3, ms: 2_000 }));
        await new Promise((resolve) => setTimeout(resolve, 500));
        a.kill("SIGTERM");
        await assertDrained(a);
        const b = await startWorker(backend, name);
        assert.deepEqual(answerOf(await redeemed(web.server, token, 30_000)), { n: 3, pid: b.pid });
      } finally {
        await web.close();
      }
    });
  });
}
