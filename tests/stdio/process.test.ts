/**
 * `examples/stdio.ts` as a real child process on the runtime running the tests: stdout carries only
 * protocol, and the process ends cleanly on EOF, on SIGTERM, and when its stdout pipe breaks.
 */
import assert from "node:assert/strict";
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { describe, it } from "node:test";
import { runtimeCommand } from "../helpers/stdio.ts";

const EXAMPLE = new URL("../../examples/stdio.ts", import.meta.url).pathname;

/**
 * How long a server with a 30 s call in flight may take to exit: it aborts the call and waits 1.5 s at
 * most for answers (`shutdownTimeoutMs`), so it exits within seconds; far below 30 s, room for a loaded machine.
 */
const EXIT_MS = 15_000;

interface Child {
  readonly process: ChildProcessWithoutNullStreams;
  readonly stdout: string[];
  stderr: string;
  /** Settles with the exit code (or signal) once the process ended, within `ms`. */
  exited(ms: number): Promise<number | string>;
  /** Waits (20 s at most: the first answer waits for the child to start, on a loaded machine) for the answer to `id`. */
  answer(id: number): Promise<Record<string, unknown>>;
  send(message: unknown): void;
}

function start(): Child {
  const { command, args } = runtimeCommand(EXAMPLE);
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
  const stdout: string[] = [];
  let partial = "";
  let closed = false;
  child.once("close", () => closed = true);
  const result: Child = {
    process: child,
    stdout,
    stderr: "",
    exited: (ms) =>
      new Promise((resolve, reject) => {
        if (closed) return resolve(child.exitCode ?? child.signalCode!);
        const timer = setTimeout(() => {
          child.kill("SIGKILL");
          reject(new Error(`the server did not exit within ${ms} ms`));
        }, ms);
        child.once("close", (code, signal) => { // after stdout was read to its end
          clearTimeout(timer);
          resolve(code ?? signal!);
        });
      }),
    answer: (id) =>
      new Promise((resolve, reject) => {
        const find = () => stdout.map((line) => JSON.parse(line)).find((m) => m.id === id && !("method" in m));
        const timer = setTimeout(() => reject(new Error(`no answer to ${id}; stderr: ${result.stderr}`)), 20_000);
        const check = () => {
          const found = find();
          if (found === undefined) return;
          clearTimeout(timer);
          child.stdout.off("data", check);
          resolve(found);
        };
        child.stdout.on("data", check);
        check();
      }),
    send: (message) => child.stdin.write(JSON.stringify(message) + "\n"),
  };
  child.stdout.on("data", (chunk: Uint8Array) => {
    partial += new TextDecoder().decode(chunk);
    const lines = partial.split("\n");
    partial = lines.pop()!;
    stdout.push(...lines);
  });
  child.stderr.on("data", (chunk: Uint8Array) => result.stderr += new TextDecoder().decode(chunk));
  return result;
}

const call = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

/**
 * Waits until the call sent last is in flight: a ping sent after it is answered once the server read the
 * call and started it (it reads its input in order, and starts a call before it does any I/O again), where a
 * sleep of 100 ms could end, on a loaded machine, before the child even read the call.
 */
async function inFlight(child: Child, pingId: number): Promise<void> {
  child.send({ jsonrpc: "2.0", id: pingId, method: "ping" });
  await child.answer(pingId);
}

describe("a stdio server process", () => {
  it("writes only protocol to stdout (console.log goes to stderr), and exits 0 when stdin closes", async () => {
    const child = start();
    child.send(call(1, "add_note", { title: "todo", text: "buy milk" }));
    const added = await child.answer(1);
    assert.match(JSON.stringify(added.result), /Stored \\"todo\\"/);
    child.send(call(2, "wait", { ms: 30_000 })); // still running when stdin closes: aborted, answered
    await inFlight(child, 3);
    child.process.stdin.end();
    // Long before the call's 30 s: it was aborted, not waited for (its answer, below, says so).
    assert.equal(await child.exited(EXIT_MS), 0);
    for (const line of child.stdout) assert.doesNotThrow(() => JSON.parse(line), `stdout line is not JSON: ${line}`);
    assert.match(child.stderr, /stored todo/);
    const aborted = child.stdout.map((line) => JSON.parse(line)).find((m) => m.id === 2);
    assert.equal(aborted?.result?.isError, true, "the aborted call was answered before exit");
  });

  it("exits 0 on SIGTERM with a call in flight, which it aborts", async () => {
    const child = start();
    child.send(call(1, "add_note", { title: "x", text: "y" }));
    await child.answer(1);
    child.send(call(2, "wait", { ms: 30_000 }));
    await inFlight(child, 3);
    process.kill(child.process.pid!, "SIGTERM"); // (Deno's ChildProcess.kill also closes the child's stdin)
    assert.equal(await child.exited(EXIT_MS), 0);
    const aborted = child.stdout.map((line) => JSON.parse(line)).find((m) => m.id === 2);
    assert.match(
      JSON.stringify(aborted?.result),
      /received SIGTERM/,
      `the aborted call was answered before exit: ${child.stdout} ${child.stderr}`,
    );
  });

  it("ends quietly, without a stack trace, when its stdout pipe breaks", async () => {
    const child = start();
    child.send(call(1, "add_note", { title: "x", text: "y" }));
    await child.answer(1);
    child.process.stdout.destroy(); // the reader goes away
    // The pipe's read end closes when the test's runtime gets to it, which on a loaded machine may be after the
    // server wrote the answers to a first batch (a run saw no exit in 15 s): the server can only learn that its
    // stdout broke by writing to it, so calls go on coming, a few every 100 ms, until it exits.
    child.process.stdin.on("error", () => {}); // once it exited, a write to its stdin fails (EPIPE)
    let id = 2;
    const calling = setInterval(() => {
      for (let i = 0; i < 8 && child.process.stdin.writable; i++) child.send(call(id++, "read_note", { title: "x" }));
    }, 100);
    const code = await child.exited(EXIT_MS).finally(() => clearInterval(calling));
    assert.ok(code === 0 || code === "SIGPIPE", `exit: ${code}`);
    assert.doesNotMatch(child.stderr, /\bat .*:\d+|Uncaught|panicked|EPIPE|BrokenPipe/i, child.stderr);
  });
});

describe("a stdio server process on Node", () => {
  it("runs unchanged: the example, bundled, answers, logs to stderr and exits 0 on EOF", () => {
    const root = new URL("../../", import.meta.url).pathname;
    const dir = mkdtempSync(join(tmpdir(), "mcplite-stdio-"));
    try {
      const bundle = join(dir, "stdio.mjs");
      const built = spawnSync(`${root}node_modules/.bin/deno`, ["bundle", "-q", "-o", bundle, EXAMPLE], {
        cwd: root,
        timeout: 30_000,
      });
      assert.equal(built.status, 0, String(built.stderr));
      const lines = [
        {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "add_note", arguments: { title: "a", text: "b" } },
        },
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "read_note", arguments: { title: "a" } } },
      ].map((message) => JSON.stringify(message) + "\n").join("");
      const run = spawnSync("node", [bundle], { input: lines, timeout: 10_000 });
      assert.equal(run.status, 0, String(run.stderr));
      const answers = String(run.stdout).trim().split("\n").map((line) => JSON.parse(line));
      assert.deepEqual(answers.find((m) => m.id === 2).result.content, [{ type: "text", text: "b" }]);
      assert.match(String(run.stderr), /stored a/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
