/**
 * The hostile battery of code mode (issue 78), at the executor: programs that reach for the host (`process`,
 * `Deno`, `Bun`, `require`, `fetch`, the host's global through `constructor.constructor` and `Function`),
 * loop forever, synchronously or awaiting, bomb memory, recurse or nest too deep, flood calls, promises or
 * output, return what is not JSON, or change prototypes. Each is refused with its reason and a message that
 * says the limit and what to do; after each, the same executor runs a plain program; the host's prototypes
 * are untouched. The time limit is 200 ms where time is what stops a program, generous elsewhere (a loaded
 * machine is slow); no duration is asserted.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { quickjsExecutor } from "../../src/code-mode/mod.ts";
import type { CodeExecutor } from "../../src/code-mode/mod.ts";

type Limits = Parameters<CodeExecutor["execute"]>[0]["limits"];
type Outcome = Awaited<ReturnType<CodeExecutor["execute"]>>;

const executor = quickjsExecutor();

/** Generous time for the programs a limit other than time stops (a loaded machine is slow); 200 ms for time's. */
const LIMITS: Limits = {
  timeMs: 10_000,
  cpuMs: 10_000,
  memoryBytes: 4 << 20,
  stackBytes: 128 << 10,
  outputBytes: 8 << 10,
  pendingCalls: 8,
};

/** The time limit of the programs that time stops. */
const SHORT = { timeMs: 200 };

/** The host's one tool: answers its arguments. */
const echo = (_name: string, args: unknown): Promise<unknown> => Promise.resolve(args);

function run(source: string, limits: Partial<Limits> = {}, call = echo): Promise<Outcome> {
  return executor.execute({ source, call, limits: { ...LIMITS, ...limits } });
}

/** Asserts the program stopped for `reason`, with a message matching `message`, then that a plain one runs. */
async function assertRefused(outcome: Outcome, reason: string | string[], message: RegExp): Promise<void> {
  assert.equal(outcome.ok, false, `expected a refusal (${reason}), got ${JSON.stringify(outcome).slice(0, 300)}`);
  if (outcome.ok) return;
  assert.ok([reason].flat().includes(outcome.reason), outcome.message);
  assert.match(outcome.message, message);
  const plain = await run(`const n = await __call("echo", 20); return n + 1;`);
  assert.deepEqual(plain, { ok: true, value: 21, logs: [] }, "the executor runs the next program");
}

/** The names a sandbox's global may hold: the language's own, console and __call. */
const SANDBOX_GLOBALS = new Set(
  ("Object Function Array Number parseFloat parseInt Infinity NaN undefined Boolean String Symbol Date Promise " +
    "RegExp Error AggregateError EvalError RangeError ReferenceError SyntaxError TypeError URIError InternalError " +
    "globalThis JSON Math Intl ArrayBuffer SharedArrayBuffer Atomics Uint8Array Int8Array Uint16Array Int16Array " +
    "Uint32Array Int32Array Float16Array Float32Array Float64Array Uint8ClampedArray BigUint64Array BigInt64Array " +
    "DataView Map BigInt Set WeakMap WeakSet Proxy Reflect FinalizationRegistry WeakRef decodeURI " +
    "decodeURIComponent encodeURI encodeURIComponent escape unescape eval isFinite isNaN Iterator console __call")
    .split(" "),
);

describe("hostile programs: the host is out of reach", () => {
  it("sees no process, Deno, Bun, require, fetch, timers, WebAssembly or module loading", async () => {
    const outcome = await run(`
      const names = ["process", "Deno", "Bun", "require", "module", "fetch", "setTimeout", "setInterval",
        "setImmediate", "queueMicrotask", "WebAssembly", "XMLHttpRequest", "WebSocket", "Worker", "std", "os",
        "navigator", "crypto", "performance", "structuredClone", "Buffer", "global", "window", "self"];
      const seen = names.filter((name) => typeof globalThis[name] !== "undefined");
      let imported;
      try {
        imported = await import("node:fs");
      } catch (error) {
        imported = String(error);
      }
      return { seen, imported, globals: Object.getOwnPropertyNames(globalThis) };
    `);
    assert.equal(outcome.ok, true, JSON.stringify(outcome));
    const value = outcome.ok ? outcome.value as { seen: string[]; imported: string; globals: string[] } : undefined;
    assert.deepEqual(value?.seen, []);
    assert.match(String(value?.imported), /could not load module/);
    assert.deepEqual(value?.globals.filter((name) => !SANDBOX_GLOBALS.has(name)), []);
  });

  it("reaches only the sandbox's own global through constructor.constructor and Function('return this')", async () => {
    const outcome = await run(`
      const viaConstructor = ({}).constructor.constructor("return this")();
      const viaFunction = Function("return this")();
      const viaAsync = (async () => {}).constructor("return this");
      const viaIndirectEval = (0, eval)("this");
      const roots = [viaConstructor, viaFunction, await viaAsync(), viaIndirectEval];
      const reach = (code) => {
        try {
          return typeof Function(code)();
        } catch (error) {
          return error.name;
        }
      };
      return {
        same: roots.every((root) => root === globalThis),
        process: reach("return process"),
        mainModule: reach("return process.mainModule.require('child_process')"),
        deno: reach("return Deno.readTextFileSync('/etc/passwd')"),
        bun: reach("return Bun.file('/etc/passwd')"),
        require: reach("return require('fs')"),
        fetch: reach("return fetch('http://127.0.0.1:1/')"),
      };
    `);
    assert.deepEqual(outcome, {
      ok: true,
      value: {
        same: true,
        process: "ReferenceError",
        mainModule: "ReferenceError",
        deno: "ReferenceError",
        bun: "ReferenceError",
        require: "ReferenceError",
        fetch: "ReferenceError",
      },
      logs: [],
    });
  });

  it("passes no host object through __call: a result is a copy made of JSON", async () => {
    const host = { secret: "kept", toJSON: () => ({ copy: true }) };
    const outcome = await run(
      `const got = await __call("echo", {});
       got.copy = "changed";
       return [got, typeof got.toJSON, Object.getPrototypeOf(got) === Object.prototype];`,
      {},
      () => Promise.resolve(host),
    );
    assert.deepEqual(outcome, { ok: true, value: [{ copy: "changed" }, "undefined", true], logs: [] });
    assert.equal(host.secret, "kept");
  });

  it("leaves the host's prototypes and JSON untouched by a program that changes its own", async () => {
    const before = {
      objectKeys: Object.getOwnPropertyNames(Object.prototype).sort(),
      arrayPush: Array.prototype.push,
      arrayKeys: Object.getOwnPropertyNames(Array.prototype).sort(),
      parse: JSON.parse,
      stringify: JSON.stringify,
      promiseThen: Promise.prototype.then,
    };
    const changed = await run(`
      Object.prototype.polluted = "yes";
      Object.defineProperty(Object.prototype, "toJSON", { value: () => "hijacked", configurable: true });
      Array.prototype.push = function () { return -1; };
      JSON.parse = () => ({ hijacked: true });
      JSON.stringify = () => '"hijacked"';
      Promise.prototype.then = function () { throw new Error("hijacked"); };
      const answer = await __call("echo", { n: 1 });
      return { answer, own: ({}).polluted };
    `);
    // Its own realm's toJSON is what its result's JSON goes through: the program sabotaged only itself.
    assert.deepEqual(changed, { ok: true, value: "hijacked", logs: [] });
    const hijackedJson = await run(`
      JSON.parse = () => ({ hijacked: true });
      JSON.stringify = () => '"hijacked"';
      Object.prototype.polluted = "yes";
      const answer = await __call("echo", { n: 1 });
      console.log({ logged: 1 });
      return { answer, own: ({}).polluted };
    `);
    // The program's own JSON is its own; __call, console and the result use the sandbox's original one.
    assert.deepEqual(hijackedJson, {
      ok: true,
      value: { answer: { n: 1 }, own: "yes" },
      logs: ['{"logged":1}'],
    });
    const fresh = await run(`return [({}).polluted, typeof JSON.parse("{}"), [].push(1)];`);
    assert.deepEqual(fresh, { ok: true, value: [null, "object", 1], logs: [] }, "the next program's realm is fresh");
    assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), before.objectKeys);
    assert.equal(Array.prototype.push, before.arrayPush);
    assert.deepEqual(Object.getOwnPropertyNames(Array.prototype).sort(), before.arrayKeys);
    assert.equal(JSON.parse, before.parse);
    assert.equal(JSON.stringify, before.stringify);
    assert.equal(Promise.prototype.then, before.promiseThen);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(JSON.stringify({ a: 1 }), '{"a":1}');
  });
});

describe("hostile programs: limits", () => {
  it("stops an endless synchronous loop at the time limit", async () => {
    await assertRefused(await run(`while (true) {}`, SHORT), "time", /past its 200 ms time limit: do less work/);
  });

  it("stops an endless loop inside a try/catch that swallows errors", async () => {
    const outcome = await run(`for (;;) { try { for (;;) {} } catch { /* swallowed */ } }`, SHORT);
    await assertRefused(outcome, "time", /200 ms time limit/);
  });

  it("stops an endless async loop awaiting resolved promises", async () => {
    await assertRefused(await run(`for (;;) await null;`, SHORT), "time", /200 ms time limit/);
  });

  it("stops a flood of microtasks the program awaits", async () => {
    const outcome = await run(
      `await new Promise(() => {
         (function again() { Promise.resolve().then(again); Promise.resolve().then(() => {}); })();
       });`,
      SHORT,
    );
    await assertRefused(outcome, "time", /200 ms time limit/);
  });

  // Unguarded, these four ran 107 s (QuickJS asks its interrupt handler once per 10,000 of such calls).
  it("stops endless loops around one native call on large data", { timeout: 30_000 }, async () => {
    const setup = `const text = JSON.stringify(Array.from({ length: 20000 }, (_, i) => ({ i, name: "item " + i })));
      const list = JSON.parse(text);`;
    for (
      const loop of ["JSON.parse(text);", "list.slice().sort();", "text.indexOf('none');", "JSON.stringify(list);"]
    ) {
      const outcome = await run(`${setup} for (;;) { try { ${loop} } catch {} }`, SHORT);
      // Each call copies about 2 MiB: the engine's memory may grow past the 4 MiB limit (its allocator's fragmentation,
      // which depends on the programs run before) before the time limit stops it. Either refusal holds.
      await assertRefused(outcome, ["time", "memory"], /200 ms time limit|4 MiB memory limit/);
    }
  });

  it("keeps the built-ins a program calls working as the language says, guarded or not", async () => {
    const outcome = await run(`
      const list = [3, 1, 2];
      return {
        sorted: list.slice().sort(),
        joined: list.join("-"),
        found: [list.indexOf(1), list.includes(5), "abc".indexOf("c")],
        names: [[].sort.name, "".replace.name, JSON.parse.name, [].sort.length, "".padStart.length],
        generic: Array.prototype.join.call({ length: 2, 0: "a", 1: "b" }, "+"),
        strings: ["a,b".split(","), "x".repeat(3), "Ab".toLowerCase(), String.fromCharCode(104, 105)],
        parsed: JSON.parse('{"a":[1]}', (key, value) => (key === "a" ? value.length : value)),
        typed: Array.from(new Uint8Array([3, 1, 2]).sort()),
      };
    `);
    assert.deepEqual(outcome, {
      ok: true,
      value: {
        sorted: [1, 2, 3],
        joined: "3-1-2",
        found: [1, false, 2],
        names: ["sort", "replace", "parse", 1, 1],
        generic: "a+b",
        strings: [["a", "b"], "xxx", "ab", "hi"],
        parsed: { a: 1 },
        typed: [1, 2, 3],
      },
      logs: [],
    });
  });

  it("stops a result whose toJSON never returns", async () => {
    await assertRefused(await run(`return { toJSON() { for (;;) {} } };`, SHORT), "time", /200 ms time limit/);
  });

  it("says a program awaiting a promise nothing settles can never end", async () => {
    await assertRefused(
      await run(`await new Promise(() => {});`),
      "time",
      /awaits a promise that nothing can settle .* resolve every promise it creates/,
    );
  });

  it("stops a memory bomb of string doubling", async () => {
    const outcome = await run(`let s = "bomb"; for (;;) { s += s; s.charCodeAt(s.length - 1); }`);
    await assertRefused(outcome, "memory", /its 4 MiB memory limit: hold less data at once/);
  });

  it("stops a memory bomb of concatenated strings kept in an array", async () => {
    const outcome = await run(`const kept = []; for (let i = 0;; i++) kept.push("x".repeat(4096) + i);`, {});
    await assertRefused(outcome, "memory", /4 MiB memory limit/);
  });

  it("stops a memory bomb of array pushes", async () => {
    const outcome = await run(`const kept = []; for (;;) kept.push([kept.length, { at: kept.length }]);`, {});
    await assertRefused(outcome, "memory", /4 MiB memory limit/);
  });

  it("stops a memory bomb of typed arrays", async () => {
    const outcome = await run(`const kept = []; for (;;) kept.push(new Uint8Array(64 * 1024));`);
    await assertRefused(outcome, "memory", /4 MiB memory limit/);
  });

  it("stops a bomb of large buffers at its memory limit, though QuickJS's own limit does not count their bytes", async () => {
    // Unguarded, QuickJS took 2,042 buffers of 1 MiB (2 GB of the host's memory) in 8 s, with no ask between: the
    // time limit could not stop it either.
    for (const make of ["new Uint8Array(1 << 20)", "new ArrayBuffer(1 << 20)", "new Float64Array(1 << 17)"]) {
      const outcome = await run(`const kept = []; for (;;) kept.push(${make});`, { timeMs: 5_000 });
      await assertRefused(outcome, "memory", /4 MiB memory limit/);
    }
  });

  it("keeps the buffer constructors what the language says, guarded", async () => {
    const outcome = await run(`
      const a = new Uint8Array([1, 2, 3]);
      class Bytes extends Uint8Array {}
      const b = new Bytes(4);
      return [a instanceof Uint8Array, b instanceof Bytes, b instanceof Uint8Array, a.constructor === Uint8Array,
        Uint8Array.name, Uint8Array.length, Uint8Array.BYTES_PER_ELEMENT, Uint8Array.from([1, 2]).length,
        Object.getPrototypeOf(a) === Uint8Array.prototype, [...a.map((x) => x * 2)], a.subarray(1).length,
        new DataView(new ArrayBuffer(8)).byteLength, b.map((x) => x).constructor === Bytes];`);
    assert.deepEqual(outcome, {
      ok: true,
      value: [true, true, true, true, "Uint8Array", 3, 1, 2, true, [2, 4, 6], 2, 8, true],
      logs: [],
    });
  });

  it("refuses a host result larger than the program's memory", async () => {
    const outcome = await run(
      `const big = await __call("big", {}); return big.length;`,
      { timeMs: 5000 },
      () => Promise.resolve("x".repeat(6 << 20)),
    );
    await assertRefused(outcome, "memory", /4 MiB memory limit/);
  });

  it("stops deep recursion at the stack limit, even when the program catches it", async () => {
    await assertRefused(await run(`(function down() { down(); })();`), "stack", /128 KiB stack .* use a loop/);
    const caught = await run(`
      let depth = 0;
      function down() { depth++; down(); }
      try { down(); } catch (error) { return { depth, name: error.name }; }
    `);
    // A caught overflow is the program's own business: it goes on, and may return.
    assert.equal(caught.ok, true, JSON.stringify(caught));
  });

  it("stops a program nested too deep for the host's own stack, and gets a new instance for the next", async () => {
    await assertRefused(await run(`return ${"[".repeat(100_000)}${"]".repeat(100_000)};`), "stack", /stack/);
    await assertRefused(await run(`return eval("[".repeat(100000));`), "stack", /stack/);
  });

  it("stops a flood of __call promises past the calls in flight allowed", async () => {
    let called = 0;
    const outcome = await run(
      `const all = []; for (let i = 0; i < 10000; i++) all.push(__call("echo", i)); await Promise.all(all);`,
      {},
      (name, args) => {
        called++;
        return echo(name, args);
      },
    );
    await assertRefused(
      outcome,
      "calls",
      /more than 8 tool calls in flight at once: await them in batches of at most 8/,
    );
    assert.equal(called, 8, "no call past the limit reached the host");
  });

  it("stops a flood of console output as soon as it passes the output limit", async () => {
    const outcome = await run(`for (let i = 0;; i++) { try { console.log("line", i); } catch {} }`);
    await assertRefused(outcome, "output", /passed its 8 KiB limit: log less, and return only what is needed/);
    assert.ok(!outcome.ok && outcome.logs.length > 0, "the lines that fit are kept");
    const bytes = outcome.logs.reduce((sum, line) => sum + line.length + 1, 0);
    assert.ok(bytes <= 8 << 10, `${bytes} bytes of lines kept`);
  });

  it("refuses a result past the output limit", async () => {
    await assertRefused(await run(`return "x".repeat(9000);`), "output", /8 KiB limit/);
    await assertRefused(await run(`console.log("x".repeat(5000)); return "y".repeat(5000);`), "output", /8 KiB/);
  });

  it("refuses a result that is not JSON", async () => {
    await assertRefused(await run(`return function f() {};`), "thrown", /not JSON \(a function\): return plain data/);
    await assertRefused(await run(`return 1n;`), "thrown", /not JSON \(a bigint\)/);
    await assertRefused(await run(`const o = {}; o.o = o; return o;`), "thrown", /not JSON \(TypeError: circular/);
    await assertRefused(await run(`return Symbol("s");`), "thrown", /not JSON \(a symbol\)/);
  });

  it("stops a program when the request is aborted", async () => {
    const controller = new AbortController();
    const outcome = executor.execute({
      source: `for (;;) await __call("echo", 1);`,
      call: (name, args) => {
        controller.abort();
        return echo(name, args);
      },
      limits: LIMITS,
      signal: controller.signal,
    });
    await assertRefused(await outcome, "aborted", /the request was cancelled/);
    const already = await executor.execute({
      source: "return 1;",
      call: echo,
      limits: LIMITS,
      signal: AbortSignal.abort(),
    });
    assert.equal(!already.ok && already.reason, "aborted");
  });

  it("runs programs concurrently, a hostile one beside plain ones", async () => {
    // One program computes at a time on the host's thread: the plain ones' time limit covers the loop's.
    const outcomes = await Promise.all([
      run(`while (true) {}`, SHORT),
      run(`return (await __call("echo", 1)) + 1;`),
      run(`const kept = []; for (;;) kept.push({ n: kept.length, s: "x".repeat(64) + kept.length });`),
      run(`const a = await __call("echo", 2); const b = await __call("echo", 3); return a + b;`),
    ]);
    assert.deepEqual(outcomes.map((outcome) => outcome.ok ? outcome.value : outcome.reason), [
      "time",
      2,
      "memory",
      5,
    ]);
  });
});
