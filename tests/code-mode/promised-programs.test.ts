/**
 * Promised programs as declared work, in one process: without a queue the job takes the running program over and
 * journals its calls; with one (in memory, a worker of this process) the call in flight at `promiseAfterMs` ends on the
 * accepting side and the worker runs the program again, that call answered from the job's input, not made twice (or,
 * too large for the token, the program goes on in its call); cancelling its task stops it; a differing call is refused;
 * a group's names, with `retry`. Redis, PostgreSQL and killed workers: tests/code-mode/queued-programs.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import {
  type AnyTool,
  createMemoryResultStore,
  createServer,
  defineTool,
  type JournalEntry,
  type JournalStore,
  runWorker,
  type Server,
} from "../../mod.ts";
import { type CodeExecutor, codeMode } from "../../src/code-mode/mod.ts";
import { memoryQueue } from "../helpers/memory-queue.ts";
import { callAny, promised, redeemedWithin } from "../helpers/outcome.ts";
import { SECRET } from "../helpers/long-running.ts";

/** How long a job may take to end, at most: a bound for a loaded machine, not a measure. */
const END_MS = 60_000;

/** A queued server whose `slow` tool waits until the test lets it answer, and whose tools count their calls. */
function queued(mode: ReturnType<typeof codeMode>, slowAnswer = "slow") {
  const calls = { slow: 0, count: 0 };
  let called = () => {};
  const slowCalled = new Promise<void>((resolve) => called = resolve);
  let release = () => {};
  const released = new Promise<void>((resolve) => release = resolve);
  const server = createServer({
    name: "queued",
    version: "1.0.0",
    secret: SECRET,
    resultStore: createMemoryResultStore(),
    queue: memoryQueue().queue,
    codeMode: mode,
  })
    .tool(
      defineTool("slow").describe("Answers once let").handle(async () => {
        calls.slow++;
        called();
        await released;
        return slowAnswer;
      }),
    )
    .tool(defineTool("count").describe("Counts").handle(() => ++calls.count))
    .tool(
      defineTool("hang").describe("Answers once its call is stopped").handle(async (_, ctx) => {
        hanging();
        await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
        stopped();
        return "stopped";
      }),
    );
  let hanging = () => {};
  const hangs = new Promise<void>((resolve) => hanging = resolve);
  let stopped = () => {};
  const hangStopped = new Promise<void>((resolve) => stopped = resolve);
  return { server, calls, slowCalled, release, hangs, hangStopped };
}

/**
 * An executor whose program calls the tools `names` in turn and answers their values: its first call is made as it
 * starts, so that it is in flight before the promise timer is set, on any machine. Its signal stops it.
 */
function scripted(...names: string[]): CodeExecutor {
  return {
    execute: async ({ call, signal }) => {
      const stopped = new Promise<never>((_, reject) => signal?.addEventListener("abort", reject, { once: true }));
      const values: unknown[] = [];
      try {
        for (const name of names) values.push(await Promise.race([call(name, {}), stopped]));
        return { ok: true, value: values, logs: [] };
      } catch {
        return { ok: false, reason: "aborted", message: "stopped", logs: [] };
      }
    },
  };
}

/**
 * Lets `slow` answer once the program is held at its promise: the 1 ms promise timer was set as the program started,
 * after `slow` was called (`scripted()`), and before the timer set here, which fires after it.
 */
async function heldPast(slowCalled: Promise<void>, release: () => void): Promise<void> {
  await slowCalled;
  await new Promise((resolve) => setTimeout(resolve, 5)); // about time: after the promiseAfterMs timer (timers in order)
  release();
}

describe("promised programs as declared work", () => {
  it("in process: the job takes the running program over, each call journaled, the one in flight as it ends", async () => {
    const appended: JournalEntry[] = [];
    const journalStore: JournalStore = {
      load: () => Promise.resolve([]),
      append: (_, entry) => (appended.push(entry), Promise.resolve(entry)),
    };
    let release = () => {};
    const released = new Promise<void>((resolve) => release = resolve);
    let called = () => {};
    const slowCalled = new Promise<void>((resolve) => called = resolve);
    const server = createServer({
      name: "here",
      version: "1.0.0",
      secret: SECRET,
      journalStore,
      codeMode: codeMode({ promiseAfterMs: 1, executor: scripted("slow", "count") }),
    })
      .tool(defineTool("slow").describe("Answers once let").handle(() => (called(), released.then(() => "slow"))))
      .tool(defineTool("count").describe("Counts").handle(() => 1));
    const answering = callAny(server, "execute_code", { code: "return await tools.slow();" });
    await heldPast(slowCalled, release);
    const ended = await redeemedWithin(server, promised(await answering).token, END_MS);
    assert.deepEqual(ended.kind === "answer" && ended.result.structuredContent, { result: ["slow", 1], logs: [] });
    assert.deepEqual(appended.map(({ name, position, value }) => ({ name, position, value })), [
      { name: "call-1-slow", position: 1, value: { ok: true, value: "slow" } },
      { name: "call-2-count", position: 2, value: { ok: true, value: 1 } },
    ]);
  });

  it("on a queue: the call in flight at promiseAfterMs ends here, and the worker's run reads it back", async () => {
    const executor = scripted("slow", "count");
    const { server, calls, slowCalled, release } = queued(codeMode({ promiseAfterMs: 1, executor }));
    const worker = runWorker(server);
    try {
      const answering = callAny(server, "execute_code", { code: "return await tools.slow();" }); // run as scripted
      await heldPast(slowCalled, release);
      const token = promised(await answering).token;
      const ended = await redeemedWithin(server, token, END_MS);
      assert.equal(ended.kind, "answer", JSON.stringify(ended));
      assert.deepEqual(ended.kind === "answer" && ended.result.structuredContent, {
        result: ["slow", 1],
        logs: [],
      });
      assert.deepEqual(calls, { slow: 1, count: 1 }, "slow was made once, before the promise");
    } finally {
      await worker.close();
    }
  });

  it("on a queue: a program whose results so far are too large for its job's token goes on in the call", async () => {
    const executor = scripted("slow", "count");
    const { server, calls, slowCalled, release } = queued(
      codeMode({ promiseAfterMs: 1, executor }),
      "y".repeat(30_000),
    );
    const answering = callAny(server, "execute_code", { code: "return await tools.slow();" });
    await heldPast(slowCalled, release);
    const outcome = await answering;
    assert.equal(outcome.kind, "answer", JSON.stringify(outcome).slice(0, 500));
    assert.deepEqual(outcome.kind === "answer" && outcome.result.structuredContent, {
      result: ["y".repeat(30_000), 1],
      logs: [],
    });
    assert.deepEqual(calls, { slow: 1, count: 1 });
  });

  it("on a queue: cancelling the task stops the program on its worker, and its call in flight", async () => {
    const executor = scripted("slow", "hang");
    const { server, calls, slowCalled, release, hangs, hangStopped } = queued(
      codeMode({ promiseAfterMs: 1, executor }),
    );
    const worker = runWorker(server);
    try {
      const answering = callAny(server, "execute_code", { code: "return await tools.slow();" });
      await heldPast(slowCalled, release); // slow ends here; hang, held, is the worker's
      const token = promised(await answering).token;
      await hangs; // the worker's run of the program is inside its call
      await callAny(server, "redeem", { promise: token, cancel: true });
      await hangStopped;
      const ended = await callAny(server, "redeem", { promise: token });
      assert.equal(ended.kind, "failure", JSON.stringify(ended));
      assert.equal(calls.slow, 1);
    } finally {
      await worker.close();
    }
  });

  it("refuses a run whose call differs from the one recorded there, even where the program catches it", async () => {
    // A program that is not deterministic (an executor of the test's): its first run calls slow, its second count.
    let runs = 0;
    const executor: CodeExecutor = {
      execute: async ({ call, signal }) => {
        const stopped = new Promise<never>((_, reject) => signal?.addEventListener("abort", reject, { once: true }));
        try {
          if (++runs === 1) await Promise.race([call("slow", {}), stopped]);
          await Promise.race([call("count", {}).catch(() => "caught"), stopped]);
          return { ok: true, value: runs, logs: [] };
        } catch {
          return { ok: false, reason: "aborted", message: "stopped", logs: [] };
        }
      },
    };
    const { server, calls, slowCalled, release } = queued(codeMode({ promiseAfterMs: 1, executor }));
    const worker = runWorker(server);
    try {
      const answering = callAny(server, "execute_code", { code: "return 1;" });
      await heldPast(slowCalled, release);
      const ended = await redeemedWithin(server, promised(await answering).token, END_MS);
      assert.equal(ended.kind, "failure", JSON.stringify(ended));
      assert.match(
        JSON.stringify(ended),
        /takes \\"call-1-count\\" at place 1 of its steps and sleeps, where its journal recorded \\"call-1-slow\\"/,
      );
      assert.deepEqual(calls, { slow: 1, count: 0 }, "count was never called");
    } finally {
      await worker.close();
    }
  });

  it("under a group's names, with retry: the grouped program's job calls the child's tools by the served names", async () => {
    const child = createServer({
      name: "kid",
      version: "1.0.0",
      codeMode: codeMode({ promiseAfterMs: 0, retry: { attempts: 2 } }),
    }).tool(
      defineTool("add").describe("Adds two numbers").input(v.object({ a: v.number(), b: v.number() }))
        .handle(({ a, b }) => a + b),
    );
    const parent = createServer({ name: "home", version: "1.0.0", secret: SECRET })
      .group("kid", child) as unknown as Server<Record<string, AnyTool>>;
    const first = await callAny(parent, "kid.execute_code", {
      code: 'const x = await tools["kid.add"]({ a: 2, b: 3 });\nreturn x * 10;',
    });
    const ended = first.kind === "promise" ? await redeemedWithin(parent, first.token, END_MS) : first;
    assert.deepEqual(ended.kind === "answer" && ended.result.structuredContent, { result: 50, logs: [] });
  });
});
