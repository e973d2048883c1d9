/**
 * `quickjsExecutor()` (src/code-mode/quickjs/), the default sandbox of code mode (issue 78): a program's
 * result and console lines, `__call` round trips (JSON both ways, a rejection caught inside the program as an
 * `Error`, concurrent calls through `Promise.all`), its syntax errors and exceptions, and the limits of time
 * and memory, each stopping the program with a message that says the limit, after which the same executor
 * runs the next program. One executor (one WebAssembly load) for the file.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { quickjsExecutor } from "../../src/code-mode/mod.ts";
import type { CodeExecutor } from "../../src/code-mode/mod.ts";

const executor = quickjsExecutor();

/** Short limits, so that a program stopped by one ends fast on a loaded machine. */
const LIMITS = {
  timeMs: 10_000,
  cpuMs: 10_000,
  memoryBytes: 8 << 20,
  stackBytes: 128 << 10,
  outputBytes: 16 << 10,
  pendingCalls: 8,
} as const;

/** The host's tools: `echo` answers its name and arguments, `fail` rejects, `later` answers after a turn. */
async function call(name: string, args: unknown): Promise<unknown> {
  if (name === "fail") throw new Error(`the tool ${name} refused: ${JSON.stringify(args)}`);
  if (name === "later") await new Promise((resolve) => setTimeout(resolve, 5)); // the host's own work: a turn
  return { name, args };
}

/** Runs `source` with the short limits (and `limits` over them). */
function run(
  source: string,
  limits: Partial<Parameters<CodeExecutor["execute"]>[0]["limits"]> = {},
  host = call,
): ReturnType<CodeExecutor["execute"]> {
  return executor.execute({ source, call: host, limits: { ...LIMITS, ...limits } });
}

/** Asserts that the executor still runs a plain program (after one stopped by a limit). */
async function assertStillRuns(): Promise<void> {
  assert.deepEqual(await run(`return [1, 2, 3].map((n) => n * 2);`), { ok: true, value: [2, 4, 6], logs: [] });
}

describe("quickjsExecutor: programs", () => {
  it("returns the program's result as JSON, with its console lines formatted as a console would", async () => {
    const outcome = await run(`
      console.log("plain", 42, { a: [1, "b"] }, null, undefined, true);
      console.info("info");
      console.debug(() => 1, function named() {});
      console.warn(new TypeError("careful"));
      console.error("bad", [1]);
      return { sum: 1 + 2, nested: [{ ok: true }], text: "é✓" };
    `);
    assert.deepEqual(outcome, {
      ok: true,
      value: { sum: 3, nested: [{ ok: true }], text: "é✓" },
      logs: [
        'plain 42 {"a":[1,"b"]} null undefined true',
        "info",
        "[Function anonymous] [Function named]",
        "[warn] TypeError: careful",
        "[error] bad [1]",
      ],
    });
  });

  it("answers undefined for a program that returns nothing", async () => {
    assert.deepEqual(await run(`console.log("only logs");`), { ok: true, value: undefined, logs: ["only logs"] });
  });

  it("round-trips __call: arguments and results cross as JSON, no host object", async () => {
    const seen: unknown[] = [];
    const outcome = await run(
      `const answer = await __call("echo", { when: new Date(0), list: [1, undefined], skip: undefined });
       return { answer, isPlain: Object.getPrototypeOf(answer) === Object.prototype };`,
      {},
      (name, args) => {
        seen.push([name, args]);
        return call(name, args);
      },
    );
    const args = { when: "1970-01-01T00:00:00.000Z", list: [1, null] };
    assert.deepEqual(seen, [["echo", args]]);
    assert.deepEqual(outcome, { ok: true, value: { answer: { name: "echo", args }, isPlain: true }, logs: [] });
  });

  it("rejects __call with an Error the program catches, whose message is the host's", async () => {
    const outcome = await run(`
      try {
        await __call("fail", { id: 7 });
        return "not reached";
      } catch (error) {
        return { isError: error instanceof Error, message: error.message };
      }
    `);
    assert.deepEqual(outcome, {
      ok: true,
      value: { isError: true, message: 'the tool fail refused: {"id":7}' },
      logs: [],
    });
  });

  it("runs concurrent __calls through Promise.all, up to the calls in flight allowed", async () => {
    let inFlight = 0;
    let most = 0;
    const outcome = await run(
      `const ids = [1, 2, 3, 4, 5, 6, 7, 8];
       const answers = await Promise.all(ids.map((id) => __call("later", { id })));
       return answers.map((answer) => answer.args.id);`,
      {},
      async (name, args) => {
        most = Math.max(most, ++inFlight);
        try {
          return await call(name, args);
        } finally {
          inFlight--;
        }
      },
    );
    assert.deepEqual(outcome, { ok: true, value: [1, 2, 3, 4, 5, 6, 7, 8], logs: [] });
    assert.equal(most, 8, "the eight calls were in flight together");
  });

  it("answers a syntax error with the parser's message and line", async () => {
    const outcome = await run(`const a = 1;\nconst b = ;\nreturn a;`);
    assert.equal(outcome.ok, false);
    assert.equal(!outcome.ok && outcome.reason, "syntax");
    assert.match(!outcome.ok ? outcome.message : "", /^SyntaxError: .+ \(at program\.js:2:\d+\)$/);
  });

  it("answers an exception thrown with its name, message and line, and the lines logged before it", async () => {
    const outcome = await run(`console.log("before");\nconst list = null;\nreturn list.length;`);
    assert.deepEqual(outcome, {
      ok: false,
      reason: "thrown",
      message: "TypeError: cannot read property 'length' of null (at program.js:3:12)",
      logs: ["before"],
    });
    const thrown = await run(`throw { code: 42 };`);
    assert.deepEqual(thrown, { ok: false, reason: "thrown", message: 'Uncaught {"code":42}', logs: [] });
  });

  it("refuses a result that is not JSON, saying why and what to return", async () => {
    for (
      const [source, detail] of [
        ["return () => 1;", "a function"],
        ["return 10n;", "a bigint"],
        ["const a = {}; a.self = a; return a;", "circular"],
        ["return { big: 1n };", "BigInt"],
      ]
    ) {
      const outcome = await run(source);
      assert.equal(!outcome.ok && outcome.reason, "thrown", source);
      assert.match(!outcome.ok ? outcome.message : "", /^the program's result is not JSON \(/, source);
      assert.ok(!outcome.ok && outcome.message.includes(detail), `${source}: ${!outcome.ok && outcome.message}`);
      assert.match(!outcome.ok ? outcome.message : "", /return plain data only/);
    }
  });
});

describe("quickjsExecutor: time and memory", () => {
  it("stops a synchronous endless loop at its time limit, and runs the next program", async () => {
    const outcome = await run(`while (true) {}`, { timeMs: 200 });
    assert.deepEqual(outcome, {
      ok: false,
      reason: "time",
      message: "the program ran past its 200 ms time limit: do less work per program (fewer calls, smaller " +
        "loops) or filter earlier, and split long work into several programs",
      logs: [],
    });
    await assertStillRuns();
  });

  it("stops a loop that only spreads a large array at its CPU limit, not long after (a step per element)", async () => {
    const outcome = await run(`const l = Array.from({ length: 200000 }, (_, i) => i); for (;;) [...l];`, {
      cpuMs: 300,
    });
    assert.equal(!outcome.ok && outcome.reason, "cpu", JSON.stringify(outcome));
    // What the sandbox's own next() must keep: every built-in iterable spreads and iterates as before.
    const kept = await run(
      `let sum = 0; for (const n of [1, 2]) sum += n;
       const it = [].values();
       return [sum, [..."ab"], [...new Map([[1, 2]])], [...new Set([3]).keys()], [...new Uint8Array([4])],
         Object.prototype.toString.call(it), it.next.name, it.next.length, it.next === [][Symbol.iterator]().next];`,
    );
    assert.deepEqual(kept, {
      ok: true,
      value: [3, ["a", "b"], [[1, 2]], [3], [4], "[object Array Iterator]", "next", 0, true],
      logs: [],
    });
  });

  it("stops a thrown value whose getter loops at its CPU limit: reading what the program threw is metered", async () => {
    const outcome = await run(`throw { get message() { for (;;) {} } };`, { cpuMs: 300, timeMs: 20_000 });
    assert.equal(!outcome.ok && outcome.reason, "cpu", JSON.stringify(outcome));
    await assertStillRuns();
  });

  it("stops a program awaiting a host call past its time limit", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => release = resolve);
    const outcome = await run(`await __call("slow", {}); return "not reached";`, { timeMs: 200 }, async () => {
      await held;
      return 1;
    });
    assert.equal(!outcome.ok && outcome.reason, "time");
    release(); // settles after the program's end: a no-op for the disposed sandbox
    await held;
    await assertStillRuns();
  });

  it("stops a program that holds more than its memory limit, and runs the next program", async () => {
    const outcome = await run(`const kept = []; for (;;) kept.push({ n: kept.length });`, { memoryBytes: 4 << 20 });
    assert.deepEqual(outcome, {
      ok: false,
      reason: "memory",
      message: "the program ran out of its 4 MiB memory limit: hold less data at once (keep only the fields you " +
        "need from each result, filter or slice before collecting)",
      logs: [],
    });
    await assertStillRuns();
  });

  it("runs fifty programs in a row on one executor (sandbox-run.test.ts checks what each frees)", async () => {
    for (let i = 0; i < 50; i++) {
      const outcome = await run(`const r = await __call("echo", ${i}); console.log(r.args); return r.args + 1;`);
      assert.deepEqual(outcome, { ok: true, value: i + 1, logs: [String(i)] });
    }
  });
});
