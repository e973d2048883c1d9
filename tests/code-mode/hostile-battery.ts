/**
 * Issue 86's hostile battery, through `execute_code` of a served `codeMode()` (its default executor) over
 * MCP-lite on 127.0.0.1, while the same process measures what its event loop is held: a 10 ms interval timer's
 * largest lag, and a second client calling a plain tool every 10 ms (its latencies); each also less the time the
 * thread waited for a core (its hold), and what the thread computed meanwhile (its run: what a program on the server's
 * thread would add to, the machine's load not). Run by
 * tests/code-mode/hostile-battery.test.ts (Deno and Node 22 through hostile-battery-main.ts), and by
 * bench/code-mode-battery.ts, which weighs it against the 50 ms goal.
 */
import { readFileSync } from "node:fs";
import * as v from "valibot";
import { createServer, defineTool, serve } from "../../mod.ts";
import { type CodeExecutor, codeMode } from "../../src/code-mode/mod.ts";

/** One program of the battery: what it is, and the reasons it may be stopped for. */
export interface Hostile {
  readonly name: string;
  readonly code: string;
  readonly reasons: readonly string[];
}

/** The battery, as issue 86's table lists it (eight loops at once are run apart, below). */
export const HOSTILE: readonly Hostile[] = [
  { name: "for (;;) {}", code: "for (;;) {}", reasons: ["cpu"] },
  { name: "catastrophic regex", code: 'return /(a+)+$/.test("a".repeat(40) + "!");', reasons: ["cpu"] },
  {
    name: "spread loop",
    code: "const l = Array.from({ length: 200000 }, (_, i) => i); for (;;) [...l];",
    reasons: ["cpu"], // each element a spread takes is a step QuickJS counts (native-guards.ts)
  },
  {
    name: "100,000 tools.add() promises",
    code:
      "const all = []; for (let i = 0; i < 100000; i++) all.push(tools.add({ a: i, b: 1 })); await Promise.all(all);",
    // Past the 16 in flight each call throws, and QuickJS keeps its 100,000 rejected promises' books for
    // seconds before its next interrupt: on a loaded machine the host may see a silent thread first.
    reasons: ["calls", "cpu"],
  },
  {
    name: "thrown value whose getter loops",
    code: "throw { get message() { for (;;) {} } };",
    reasons: ["cpu", "time"],
  },
  {
    name: "heap bomb",
    code: 'const kept = []; for (;;) kept.push("x".repeat(4096) + kept.length);',
    reasons: ["memory", "cpu"], // 64 MiB filled in 4 KiB strings can take longer than a second of CPU
  },
  { name: "deep recursion", code: "(function down() { down(); })();", reasons: ["stack"] },
  {
    name: "endless microtask loop",
    code: "await new Promise(() => { (function again() { Promise.resolve().then(again); })(); });",
    reasons: ["cpu", "time"],
  },
];

/** What the battery found. */
export interface BatteryReport {
  /** Each program's name and the reason it stopped with (or `answered`). */
  readonly stopped: {
    readonly name: string;
    readonly reason: string;
    readonly allowed: readonly string[];
    /** The timer's largest lag while it ran, in ms. */
    readonly lagMs: number;
    /** The same less the time the thread waited for a core meanwhile, in ms. */
    readonly heldMs: number;
    /** The most the thread computed between two of the timer's ticks while it ran, in ms. */
    readonly ranMs: number;
  }[];
  /** The reasons the eight loops run at once stopped with. */
  readonly eight: string[];
  /** What a plain program answered after them all. */
  readonly plain: unknown;
  /** The interval timer's largest lag over the run, in ms. */
  readonly maxLagMs: number;
  /**
   * The largest hold of the event loop: a lag less the time the server's thread waited for a core meanwhile (Linux's
   * schedstat); the lag itself where that cannot be read. A machine busy with other processes lengthens lags, not holds.
   */
  readonly maxHeldMs: number;
  /**
   * The most the server's thread computed between two of the timer's ticks (Linux's schedstat: its time on a core),
   * in ms; the hold where that cannot be read. A program on the server's thread computes there for its whole CPU
   * limit; a hold also counts the time the thread slept while others ran (a collector's thread, a thread starting),
   * which on a machine busy with other processes grows with their load (606 ms once in CI, with 29 ms computed).
   */
  readonly maxRanMs: number;
  /**
   * The same over `quietMs` before the battery, the second client alone: what the machine's own load holds it (not
   * asserted; bench/code-mode-battery.ts measures 3 s).
   */
  readonly quietLagMs: number;
  /** The second client's calls: how many, their p99 and largest latency, in ms. */
  readonly calls: {
    readonly count: number;
    readonly p99Ms: number;
    readonly maxMs: number;
    /** The largest latency less the time the server's thread waited for a core meanwhile, in ms. */
    readonly maxHeldMs: number;
    /** The most the server's thread computed while one call waited for its answer, in ms. */
    readonly maxRanMs: number;
  };
}

/** The calling thread's time on a core and waiting for one since it started, in ms. */
interface ThreadTimes {
  readonly ran: number;
  readonly waited: number;
}

/**
 * The calling thread's times (proc(5), /proc/thread-self/schedstat: its first field, time spent on the cpu, and its
 * second, time spent waiting on a runqueue, in ns); `ran` NaN and `waited` 0 where they cannot be read (no /proc).
 */
function threadTimes(): ThreadTimes {
  try {
    const [ran, waited] = readFileSync("/proc/thread-self/schedstat", "latin1").split(" ").map(Number);
    return { ran: ran! / 1e6, waited: waited! / 1e6 };
  } catch {
    return { ran: NaN, waited: 0 };
  }
}

/** What the thread did over a stretch `elapsedMs` long from `before`: its hold, and what it computed (the hold if unknown). */
function stretch(elapsedMs: number, before: ThreadTimes, after: ThreadTimes): { held: number; ran: number } {
  const held = elapsedMs - (after.waited - before.waited);
  const ran = after.ran - before.ran;
  return { held, ran: Number.isNaN(ran) ? held : Math.min(held, ran) };
}

/** A tool result over MCP-lite: its structured content (a failure's `reason` among it). */
type Structured = { reason?: string; result?: unknown };

/** How the battery runs: the executor, each program's limits, and whether the machine's own lag is measured first. */
export interface BatteryOptions {
  /** The executor (default `codeMode()`'s: a thread of its own where threads exist). */
  readonly executor?: CodeExecutor;
  /** Each program's time limit (default `codeMode()`'s, 30 s). */
  readonly timeMs?: number;
  /** Each program's CPU limit (default `codeMode()`'s, 1 s). */
  readonly cpuMs?: number;
  /** How long the timer's lag is measured before the battery, the second client alone (`quietLagMs`); default 0. */
  readonly quietMs?: number;
}

/**
 * Runs the battery against a server of its own, stopped before this resolves.
 *
 * @param options The executor, the programs' limits, the quiet measure before.
 * @returns What it found.
 */
export async function runBattery(options: BatteryOptions = {}): Promise<BatteryReport> {
  const { executor, timeMs, cpuMs, quietMs = 0 } = options;
  const server = createServer({
    name: "battery",
    version: "1.0.0",
    codeMode: codeMode({
      promiseAfterMs: 60_000,
      executor,
      limits: { ...timeMs === undefined ? {} : { timeMs }, ...cpuMs === undefined ? {} : { cpuMs } },
    }),
  })
    .tool(
      defineTool("add").describe("Adds two numbers").input(v.object({ a: v.number(), b: v.number() }))
        .handle(({ a, b }) => ({ sum: a + b })),
    )
    .tool(defineTool("ping").describe("Answers pong").handle(() => "pong"));
  const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  const url = `${listener.url}/mcp-lite/v1/calltools`;
  let id = 0;
  const call = async (name: string, args: object): Promise<Structured> => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name, arguments: args } }),
    });
    const body = await response.json() as { result?: { structuredContent?: Structured }; error?: unknown };
    if (body.result === undefined) throw new Error(`no result: ${JSON.stringify(body)}`);
    return body.result.structuredContent ?? { reason: `no structured content: ${JSON.stringify(body.result)}` };
  };

  // The server's event loop, seen from inside: a 10 ms timer's lag, and a plain call every 10 ms; each also less
  // the time this thread (the timer's and the server's) waited for a core meanwhile, and what it computed.
  // The largest of each over the run (`worst`) and while the current program runs (`current`).
  const worst = { lag: 0, held: 0, ran: 0 }, current = { lag: 0, held: 0, ran: 0 };
  let last = performance.now(), lastTimes = threadTimes();
  const timer = setInterval(() => {
    const now = performance.now(), times = threadTimes();
    const lag = now - last - 10, { held, ran } = stretch(lag, lastTimes, times);
    for (const largest of [worst, current]) {
      largest.lag = Math.max(largest.lag, lag);
      largest.held = Math.max(largest.held, held);
      largest.ran = Math.max(largest.ran, ran);
    }
    last = now;
    lastTimes = times;
  }, 10);
  const latencies: number[] = [], holds: number[] = [], runs: number[] = [];
  let running = true;
  const pinging = (async () => {
    while (running) {
      const started = performance.now(), times = threadTimes();
      await call("ping", {});
      const latency = performance.now() - started, { held, ran } = stretch(latency, times, threadTimes());
      latencies.push(latency);
      holds.push(held);
      runs.push(ran);
      await new Promise((resolve) => setTimeout(resolve, 10)); // about time: a call every 10 ms
    }
  })();

  const reasonOf = (answer: Structured) => answer.reason ?? "answered";
  try {
    // The pool warms before the battery: two programs at once, a thread each.
    await Promise.all(
      [1, 2].map(() => call("execute_code", { code: "return (await tools.add({ a: 1, b: 1 })).sum;" })),
    );
    worst.lag = 0;
    await new Promise((resolve) => setTimeout(resolve, quietMs)); // about time: the timer's lag over quiet seconds
    const quietLagMs = Math.round(worst.lag);
    Object.assign(worst, { lag: 0, held: 0, ran: 0 });
    latencies.length = holds.length = runs.length = 0;
    const stopped = [];
    for (const hostile of HOSTILE) {
      Object.assign(current, { lag: 0, held: 0, ran: 0 });
      const reason = reasonOf(await call("execute_code", { code: hostile.code }));
      const [lagMs, heldMs, ranMs] = [current.lag, current.held, current.ran].map(Math.round) as [
        number,
        number,
        number,
      ];
      stopped.push({ name: hostile.name, reason, allowed: hostile.reasons, lagMs, heldMs, ranMs });
    }
    const eight = (await Promise.all(Array.from({ length: 8 }, () => call("execute_code", { code: "for (;;) {}" }))))
      .map(reasonOf);
    const plain = (await call("execute_code", { code: "return (await tools.add({ a: 2, b: 3 })).sum;" })).result;
    running = false;
    await pinging;
    const sorted = latencies.toSorted((a, b) => a - b);
    return {
      stopped,
      eight,
      plain,
      maxLagMs: Math.round(worst.lag),
      maxHeldMs: Math.round(worst.held),
      maxRanMs: Math.round(worst.ran),
      quietLagMs,
      calls: {
        count: sorted.length,
        p99Ms: Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? NaN),
        maxMs: Math.round(sorted.at(-1) ?? NaN),
        maxHeldMs: Math.round(Math.max(...holds)),
        maxRanMs: Math.round(Math.max(...runs)),
      },
    };
  } finally {
    running = false;
    clearInterval(timer);
    await pinging.catch(() => {});
    await listener.close();
  }
}
