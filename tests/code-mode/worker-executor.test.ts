/**
 * workerExecutor() (issue 86, item 1): each program runs in QuickJS on a thread of its own, its tool calls
 * crossing to the host's `call` as messages; the thread is terminated hard at the limits the host sees (time, a
 * thread stuck computing in one native step, the request's abort) and replaced; programs past `max` wait for
 * a thread; codeMode() takes it by default where threads exist. No duration is asserted.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createServer, defineTool } from "../../mod.ts";
import { type CodeExecutor, codeMode, workerExecutor } from "../../src/code-mode/mod.ts";
import { waitFor } from "../helpers/long-running.ts";

type Limits = Parameters<CodeExecutor["execute"]>[0]["limits"];
type Outcome = Awaited<ReturnType<CodeExecutor["execute"]>>;

const LIMITS: Limits = {
  timeMs: 20_000,
  cpuMs: 10_000,
  memoryBytes: 8 << 20,
  stackBytes: 128 << 10,
  outputBytes: 8 << 10,
  pendingCalls: 8,
};

/** The host's one tool: answers its name and arguments. */
const echo = (name: string, args: unknown): Promise<unknown> => Promise.resolve({ name, args });

describe("workerExecutor()", () => {
  const executor = workerExecutor({ size: 1, max: 2 });
  const run = (source: string, limits: Partial<Limits> = {}, call = echo, signal?: AbortSignal): Promise<Outcome> =>
    executor.execute({ source, call, limits: { ...LIMITS, ...limits }, signal });
  /** Asserts that a plain program runs after a stopped one. */
  const assertServes = async () =>
    assert.deepEqual(await run(`return (await __call("echo", 20)).args + 1;`), { ok: true, value: 21, logs: [] });

  it("runs a program on a thread: its calls reach the host's call, their results and failures come back", async () => {
    const seen: unknown[] = [];
    const outcome = await run(
      `const a = await __call("echo", { n: 1 });
       console.log("got", a.name);
       let failed;
       try { await __call("boom", {}); } catch (error) { failed = error.message; }
       let notJson;
       try { await __call("bigint", {}); } catch (error) { notJson = error.message; }
       return { a, failed, notJson, none: await __call("nothing") };`,
      {},
      (name, args) => {
        seen.push([name, args]);
        if (name === "boom") return Promise.reject(new Error("the tool failed"));
        if (name === "bigint") return Promise.resolve(1n);
        if (name === "nothing") return Promise.resolve(undefined);
        return echo(name, args);
      },
    );
    assert.equal(outcome.ok, true, JSON.stringify(outcome));
    const value = outcome.ok ? outcome.value as Record<string, unknown> : {};
    assert.deepEqual(value.a, { name: "echo", args: { n: 1 } });
    assert.equal(value.failed, "the tool failed");
    assert.match(String(value.notJson), /^the tool's result is not JSON: /);
    assert.equal("none" in value, false);
    assert.deepEqual(outcome.ok && outcome.logs, ["got echo"]);
    assert.deepEqual(seen, [["echo", { n: 1 }], ["boom", {}], ["bigint", {}], ["nothing", undefined]]);
  });

  it("stops a loop by its CPU limit on its thread, and the next program runs", async () => {
    const outcome = await run(`for (;;) {}`, { cpuMs: 200 });
    assert.equal(!outcome.ok && outcome.reason, "cpu", JSON.stringify(outcome));
    await assertServes();
  });

  it("stops a thrown value whose getter loops by its CPU limit, and the next program runs", async () => {
    // The thrown value's getters run as it is read, metered on the thread; were the thread to stay silent (a native
    // step QuickJS cannot interrupt), the host would terminate it past cpuMs and start another.
    const outcome = await run(`throw { get message() { for (;;) {} } };`, { cpuMs: 200 });
    assert.equal(!outcome.ok && outcome.reason, "cpu", JSON.stringify(outcome));
    assert.match(!outcome.ok ? outcome.message : "", /more than its 200 ms CPU limit/);
    await assertServes();
  });

  it("terminates a program past its time limit, whatever it awaits", async () => {
    const outcome = await run(`await __call("slow", {}); return 1;`, { timeMs: 300 }, () => new Promise(() => {}));
    assert.equal(!outcome.ok && outcome.reason, "time", JSON.stringify(outcome));
    await assertServes();
  });

  it("terminates a program on the request's abort, mid-loop", async () => {
    const controller = new AbortController();
    // About time: nothing outside the thread sees its program enter the loop (a call made there would be in flight,
    // another path), so the abort comes 50 ms after the call's answer; one landing sooner is "aborted" all the same.
    const outcome = await run(
      `await __call("started", {}); for (;;) {}`,
      {},
      (name, args) => {
        setTimeout(() => controller.abort(), 50);
        return echo(name, args);
      },
      controller.signal,
    );
    assert.equal(!outcome.ok && outcome.reason, "aborted", JSON.stringify(outcome));
    await assertServes();
  });

  it("runs programs past max as threads free, the wait counted in their time", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => release = resolve);
    let started = 0;
    const hold = (name: string, args: unknown) => (started++, held.then(() => echo(name, args)));
    const two = [
      run(`return (await __call("a", 1)).args;`, {}, hold),
      run(`return (await __call("b", 2)).args;`, {}, hold),
    ];
    await waitFor(() => started >= 2);
    // Both threads hold a program: a third waits, and one whose time ends while it waits stops with "time".
    const third = run(`return 3;`);
    const late = await run(`return 4;`, { timeMs: 100 });
    assert.equal(!late.ok && late.reason, "time", JSON.stringify(late));
    release();
    assert.deepEqual((await Promise.all([...two, third])).map((o) => o.ok && o.value), [1, 2, 3]);
  });
});

describe("codeMode() where threads exist", () => {
  /**
   * A server whose programs answer inline for a minute (on a loaded machine a program's thread, at its lowered
   * priority, may take seconds to be served), with a CPU limit of `cpuMs`.
   */
  const serverWith = (cpuMs: number) => {
    const server = createServer({
      name: "threads",
      version: "1.0.0",
      codeMode: codeMode({ promiseAfterMs: 60_000, limits: { cpuMs } }),
    }).tool(defineTool("ticks").describe("How many times the server's timer fired").handle(() => ticks));
    return server.call.bind(server) as (name: string, args: object) => ReturnType<typeof server.call>;
  };
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  after(() => clearInterval(timer));

  it("runs programs off the server's thread by default: its timers fire while a program computes", async () => {
    // 150 ms of computing between two calls: on the server's thread, its 5 ms timer could fire once at most. The CPU
    // limit is far from it: the limit is measured as the program's time in the sandbox, which a starved thread's
    // waits lengthen (tests/code-mode/quickjs-executor.test.ts has the limits).
    const call = serverWith(10_000);
    const ran = await call("execute_code", {
      code: "const a = await tools.ticks(); const t = Date.now(); while (Date.now() - t < 150) {} " +
        "return [a, await tools.ticks()];",
    });
    assert.equal(ran.kind, "answer", JSON.stringify(ran));
    const [a, b] = ran.kind === "answer" ? ran.result.structuredContent?.result as number[] : [0, 0];
    assert.ok(b - a >= 3, `the server's timer fired ${b - a} times while the program computed`);
  });

  it("stops a loop with its reason, and serves the next program", async () => {
    const call = serverWith(300);
    const ran = await call("execute_code", { code: "for (;;) {}" });
    assert.equal(ran.kind === "failure" && ran.result.structuredContent?.reason, "cpu", JSON.stringify(ran));
    const next = await call("execute_code", { code: "return 1 + (await tools.ticks()) * 0;" });
    assert.deepEqual(next.kind === "answer" && next.result.structuredContent?.result, 1);
  });
});
