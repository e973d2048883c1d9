/**
 * `workerExecutor()`: code mode's default sandbox where the runtime has threads. Each program runs in QuickJS
 * on a thread of its own (a small warm pool), so the server's event loop is never held by a program; its tool
 * calls cross to the server's pipeline as messages, and the thread is terminated hard at any limit this side
 * sees (time, a thread that stops answering while it computes, the request's abort), then replaced.
 *
 * @module
 */
import type { CodeExecutor } from "../executor.ts";
import { limitMessage } from "../quickjs/stop-messages.ts";
import type { FromThread, ToThread } from "./thread-messages.ts";
import { type Thread, threadStarter } from "../../runtime/threads.ts";
import { raiseStop, stopFlag } from "./stop-flag.ts";
import { unrefTimer } from "../../runtime/unref-timer.ts";
import { threadCpuClock } from "../../runtime/thread-priority.ts";

/** A program, and its outcome, as the executor contract says them. */
type Program = Parameters<CodeExecutor["execute"]>[0];
type Outcome = Awaited<ReturnType<CodeExecutor["execute"]>>;

/** The options of {@link workerExecutor}. */
export interface WorkerExecutorOptions {
  /** Threads kept warm once the first program has run (default 2): a program on a warm one starts at once. */
  readonly size?: number;
  /**
   * Programs running at once, one thread each (default 8, at least `size`): more wait for a thread, their wait
   * counted in their time limit.
   */
  readonly max?: number;
}

/** How often a running program's thread is asked whether it still answers, in milliseconds. */
const PING_MS = 100;
/** How long past a limit the thread has to report it itself before it is terminated, in milliseconds. */
const GRACE_MS = 250;
/** How long an idle thread past `size`, or one that keeps the process alive (no `unref()`), is kept, in ms. */
const IDLE_MS = 10_000;

/** One thread of the pool, and what it runs now. */
interface Slot {
  thread: Thread;
  /** Raised when the thread is ended: its program stops at its next interrupt, whatever `terminate()` does. */
  readonly stop: Int32Array;
  /** When the thread last answered (0 until QuickJS is loaded in it). */
  heard: number;
  /** The thread's CPU clock, where it can be read (Linux). */
  cpuMs?: () => number;
  /** Set once the thread failed or was terminated: it runs nothing more. */
  dead: boolean;
  /** The running program's handler of the thread's messages and failure. */
  running?: { message(message: FromThread): void; failed(error: Error): void };
  idleTimer?: ReturnType<typeof setTimeout>;
}

/** The worker script, next to this file: `.ts` from source (Deno, Bun, JSR), `.js` from the npm package's dist. */
function scriptUrl(): URL {
  return new URL(import.meta.url.endsWith(".ts") ? "./program-worker.ts" : "./program-worker.js", import.meta.url);
}

/**
 * Runs code mode's programs each in QuickJS on a thread of its own: Bun's web `Worker`, `node:worker_threads`
 * on Node and Deno (there started by a spawner thread, since Deno's `Worker` constructor waits for the thread to run).
 * The server's thread only passes messages: a program that loops, bombs memory or floods
 * promises holds its own thread, never the server's event loop. Each `__call` crosses as a message to the
 * `call` given (the server's one call pipeline, with the caller's rights) and its result comes back as JSON.
 * The limits are measured on the program's thread (`cpu`, `time`, `memory`, `stack`, `output`, `calls`), as
 * `quickjsExecutor()` measures them, except that on Linux `cpu` is the thread's own CPU time (proc(5),
 * `/proc/self/task/<tid>/schedstat`), so that a thread waiting for a core on a busy machine is not stopped for
 * it (elsewhere it is the wall time the program computes). This side ends the thread when the program runs past
 * its time, when the thread stops answering for longer than `cpuMs` having computed that long (a program stuck in
 * one long native step), and on the request's abort, and starts a new thread in its place. On Linux a thread runs
 * at the process's priority until its program has computed 30 ms, then at nice 10 (setpriority(2)) for the rest of
 * it, and is then replaced (on Deno replaced without being lowered: its threads trim every allocator arena as they
 * exit, and a lowered one held the server's thread behind it). An ended thread's program stops at its next
 * interrupt (Bun's and Deno's `terminate()` alone leave a thread computing in WebAssembly running), and its
 * thread is terminated. Console lines are lost with an ended thread.
 *
 * Threads start with the first program (`size` of them), each loading QuickJS once, and stay warm; an idle
 * thread does not keep the process alive; past `size`, one idle for 10 s is ended. Where the runtime has no threads (Cloudflare Workers has no `Worker` constructor),
 * `codeMode()` keeps `quickjsExecutor()`, which computes on the server's thread.
 *
 * @param options The threads kept warm, and how many programs run at once.
 * @returns An executor, to give to `codeMode({ executor })` (its default where the runtime has threads).
 * @throws {TypeError} When `size` or `max` is not a positive integer, or `max` is below `size`.
 *
 * @example Running a program on a thread, with one tool call
 * ```ts
 * import { workerExecutor } from "@mcplite/sdk/code-mode";
 *
 * const executor = workerExecutor({ size: 1 });
 * const outcome = await executor.execute({
 *   source: `const sum = await __call("add", { a: 2, b: 3 }); return sum * 2;`,
 *   call: async (name, args) => {
 *     const { a, b } = args as { a: number; b: number };
 *     return name === "add" ? a + b : Promise.reject(new Error(`no tool ${name}`));
 *   },
 *   limits: { timeMs: 5000, cpuMs: 1000, memoryBytes: 32 << 20, stackBytes: 128 << 10, outputBytes: 64 << 10, pendingCalls: 16 },
 * });
 * console.log(outcome); // { ok: true, value: 10, logs: [] }
 * ```
 */
export function workerExecutor(options: WorkerExecutorOptions = {}): CodeExecutor {
  const size = options.size ?? 2;
  const max = options.max ?? Math.max(size, 8);
  if (!Number.isSafeInteger(size) || size < 1) throw new TypeError("workerExecutor(): size is a positive integer");
  if (!Number.isSafeInteger(max) || max < size) {
    throw new TypeError("workerExecutor(): max is an integer, at least size");
  }
  const url = scriptUrl();
  const spawnThread = threadStarter();
  const idle: Slot[] = [];
  /** The programs waiting for a thread: each takes one, or learns that no thread can start. */
  const waiting: { take(slot: Slot): void; refuse(error: Error): void }[] = [];
  let live = 0;
  let starting = false;
  let runs = 0;

  /**
   * Hands idle threads to waiting programs, and starts one thread at a time while programs wait (up to `max`) or
   * the pool is below `size`: a thread's start (its runtime's bootstrap, QuickJS compiled) costs CPU that many
   * starting at once would take from the server's thread.
   */
  function pump(): void {
    while (waiting.length > 0 && idle.length > 0) {
      const slot = idle.pop()!;
      clearTimeout(slot.idleTimer);
      waiting.shift()!.take(slot);
    }
    if (starting || live >= max || (waiting.length === 0 && live >= size)) return;
    starting = true;
    live++;
    const slot = { heard: 0, dead: false, stop: stopFlag() } as Slot;
    try {
      slot.thread = spawnThread(url, {
        message(data) {
          const message = data as FromThread;
          if (message.type === "broken") return fail(new Error(`the sandbox's thread failed: ${message.message}`));
          slot.heard = Date.now();
          if (message.type !== "ready") return slot.running?.message(message);
          slot.cpuMs = threadCpuClock(message.tid);
          starting = false;
          release(slot);
        },
        failed: fail,
      });
    } catch (error) {
      // No thread can start here (no Worker, or its script refused): the programs waiting learn why.
      live--;
      starting = false;
      for (const waiter of waiting.splice(0)) waiter.refuse(error as Error);
      return;
    }
    function fail(error: Error): void {
      if (slot.dead) return;
      const running = slot.running;
      const started = slot.heard !== 0;
      retire(slot, false);
      if (running !== undefined) running.failed(error);
      if (!started) {
        // The thread never ran QuickJS: the executor cannot run here (its script or its WebAssembly did not load).
        starting = false;
        for (const waiter of waiting.splice(0)) waiter.refuse(error);
      }
      pump();
    }
  }

  /** Ends a thread for good. */
  function retire(slot: Slot, refill = true): void {
    if (slot.dead) return;
    slot.dead = true;
    slot.running = undefined;
    clearTimeout(slot.idleTimer);
    const at = idle.indexOf(slot);
    if (at >= 0) idle.splice(at, 1);
    live--;
    raiseStop(slot.stop);
    slot.thread.terminate();
    if (refill) pump(); // a thread in its place, for a program waiting or the warm pool
  }

  /** Gives a thread that is free to the next program waiting, or keeps it idle (ended if it stays idle long). */
  function release(slot: Slot): void {
    slot.running = undefined;
    // Handed on, the next thread still starts for the programs left waiting: they wait for a thread, not for this one.
    if (waiting.length > 0) return waiting.shift()!.take(slot), pump();
    idle.push(slot);
    slot.thread.unref();
    // Past `size`, and where an idle thread keeps the process alive (no unref()), a thread idle for IDLE_MS ends.
    if (idle.length > size || !slot.thread.unrefs) {
      slot.idleTimer = unrefTimer(setTimeout(() => retire(slot, false), IDLE_MS));
    }
    pump();
  }

  /** A thread for one program, once one is free (undefined: it stopped waiting). */
  function acquire(stop: Promise<void>): Promise<Slot | undefined> {
    return new Promise((resolve, reject) => {
      const waiter = { take: resolve, refuse: reject };
      waiting.push(waiter);
      pump();
      void stop.then(() => {
        const at = waiting.indexOf(waiter);
        if (at >= 0) waiting.splice(at, 1), resolve(undefined);
      });
    });
  }

  return {
    async execute(program) {
      const { limits, signal } = program;
      const deadline = Date.now() + limits.timeMs;
      const stopped = (reason: "time" | "cpu" | "aborted" | "memory"): Outcome => ({
        ok: false,
        reason,
        message: limitMessage(reason, limits),
        logs: [],
      });
      if (signal?.aborted) return stopped("aborted");

      // What stops a program waiting for a thread: its time, or the request's abort.
      let stopWaiting!: () => void;
      const stop = new Promise<void>((resolve) => stopWaiting = resolve);
      const waitTimer = setTimeout(stopWaiting, limits.timeMs);
      signal?.addEventListener("abort", stopWaiting, { once: true });
      const slot = await acquire(stop).finally(() => {
        clearTimeout(waitTimer);
        signal?.removeEventListener("abort", stopWaiting);
      });
      if (slot === undefined) return stopped(signal?.aborted ? "aborted" : "time");
      if (signal?.aborted) return release(slot), stopped("aborted");
      return await runOn(slot, program, deadline, stopped);
    },
  };

  function runOn(
    slot: Slot,
    program: Program,
    deadline: number,
    stopped: (reason: "time" | "cpu" | "aborted" | "memory") => Outcome,
  ): Promise<Outcome> {
    const { limits, signal } = program;
    const run = ++runs;
    slot.heard = Date.now(); // idle until now: its silence starts with the program
    return new Promise<Outcome>((resolve, reject) => {
      let ended = false;
      const end = (outcome: Outcome | Error, kill: boolean) => {
        if (ended) return;
        ended = true;
        clearInterval(watch);
        signal?.removeEventListener("abort", onAbort);
        if (kill) retire(slot);
        else if (!slot.dead) release(slot);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const onAbort = () => end(stopped("aborted"), true);
      const post = (message: ToThread) => {
        if (!ended && !slot.dead) slot.thread.post(message);
      };
      slot.thread.ref();
      slot.running = {
        message(message) {
          // A thread whose program ran long is retired: it lowered its priority, which none can raise back (on Deno it
          // did not, and is retired all the same: no program runs on a thread a hog had).
          if (message.type === "done" && message.run === run) return end(message.outcome, message.long);
          if (message.type !== "call" || message.run !== run) return;
          const { id, name, args } = message;
          Promise.resolve()
            .then(() => program.call(name, args))
            .then(
              (value) => {
                let json: string | undefined;
                try {
                  json = JSON.stringify(value);
                } catch (error) {
                  const why = error instanceof Error ? error.message : String(error);
                  return post({ type: "reject", run, id, message: `the tool's result is not JSON: ${why}` });
                }
                post({ type: "settle", run, id, json });
              },
              (error) =>
                post({ type: "reject", run, id, message: error instanceof Error ? error.message : String(error) }),
            );
        },
        // A thread that ran QuickJS failing under a program is the program's doing (its memory, most likely).
        failed: () => end(stopped("memory"), true),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      // The program's own limits are the thread's to enforce; this side ends a thread past them with no answer.
      // Its silence is a hog's only once the thread has computed past cpuMs: until then it waits for a core.
      const cpuFrom = slot.cpuMs?.() ?? 0;
      const hogging = () => slot.cpuMs === undefined || !(slot.cpuMs() - cpuFrom <= limits.cpuMs + GRACE_MS);
      let tick = Date.now();
      const watch = setInterval(() => {
        const now = Date.now();
        // This thread held, the thread's answers may be queued behind this tick: its silence is judged next tick.
        const late = now - tick > 3 * PING_MS;
        tick = now;
        if (now > deadline + GRACE_MS) return end(stopped("time"), true);
        if (!late && now - slot.heard > limits.cpuMs + GRACE_MS && hogging()) return end(stopped("cpu"), true);
        post({ type: "ping" });
      }, PING_MS);
      post({
        type: "run",
        run,
        source: program.source,
        limits: { ...limits, timeMs: Math.max(1, deadline - Date.now()) },
        stop: slot.stop,
      });
    });
  }
}
