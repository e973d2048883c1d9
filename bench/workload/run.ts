/**
 * The workload run: Redis (seeded) and the product API started once, then for each round every
 * (runtime, server) pair in turn — the order rotated each round, so no pair always runs first or last —
 * each server on `--workers` processes (`worker.ts`), driven by `load.ts` in its own process. Measured
 * in the load's window only: tool calls/s, tools/call p50/p99, the server's CPU time per call (user +
 * system of every process of the server, from /proc/<pid>/stat) and its peak RSS (the sum over its
 * processes, sampled every 200 ms). Prints one row per pair and the ratios ours ÷ official and
 * ours ÷ floor; only ratios within one run mean anything (the load, Redis and the API share the cores).
 *
 *   bun bench/workload/run.ts [--rounds 3] [--seconds 8] [--warmup 2] [--vus 50] [--workers 2]
 *     [--runtimes node,bun] [--servers ours,official,floor] [--before <checkout>]
 *
 * `--before <checkout>` adds the server `before`: `ours.ts` of another checkout of this repository (a
 * worktree of an earlier commit, its `node_modules` linked), run in the same rounds, so that a change
 * is measured as before ÷ after in one run.
 *
 * Node is Node 22 from `bash .ci/node22.sh` (`NODE22` overrides it), Bun this process's `bun`.
 *
 * @module
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import process from "node:process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { freePort, startRedis } from "./redis.ts";

const { values: opts } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    seconds: { type: "string", default: "8" },
    warmup: { type: "string", default: "2" },
    vus: { type: "string", default: "50" },
    workers: { type: "string", default: "2" },
    runtimes: { type: "string", default: "node,bun" },
    servers: { type: "string", default: "ours,official,floor" },
    before: { type: "string" },
  },
});
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BUN = process.execPath.includes("bun") ? process.execPath : "bun";
const BINARIES: Record<string, string> = {
  node: process.env.NODE22 ?? execFileSync("bash", [`${ROOT}.ci/node22.sh`]).toString().trim(),
  bun: BUN,
};
const RUNTIMES = opts.runtimes.split(",");
const SERVERS = [...opts.servers.split(","), ...(opts.before === undefined ? [] : ["before"])];
/** `worker.ts` and the server it runs: this checkout's, or `ours` of the `--before` checkout. */
const workerOf = (server: string) =>
  server === "before"
    ? [`${opts.before!.replace(/\/$/, "")}/bench/workload/worker.ts`, "ours"]
    : [here("./worker.ts"), server];

/** Starts a child and waits for its `LISTENING <port>` line. */
function listening(child: ChildProcess, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not listen within 30 s`)), 30_000);
    child.once("exit", (code) => reject(new Error(`${what} exited (${code})`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const match = /^LISTENING (\d+)/.exec(line);
      if (match) clearTimeout(timer), resolve(Number(match[1]));
    });
  });
}

/** The pids of a process and its descendants. */
function tree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of execFileSync("ps", ["-e", "-o", "pid=,ppid="]).toString().trim().split("\n")) {
    const [pid, ppid] = name.trim().split(/\s+/).map(Number);
    children.set(ppid, [...children.get(ppid) ?? [], pid]);
  }
  const all = [root];
  for (let i = 0; i < all.length; i++) all.push(...children.get(all[i]) ?? []);
  return all;
}

/** CPU seconds (user + system) and RSS bytes of these processes, from /proc/<pid>/stat. */
function usage(pids: number[]): { cpu: number; rss: number } {
  let ticks = 0, pages = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields from the 3rd (state) on
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (14th, 15th)
      pages += Number(fields[21]); // rss (24th)
    } catch { /* exited */ }
  }
  return { cpu: ticks / 100, rss: pages * 4096 }; // USER_HZ 100, 4 KiB pages (Linux x86-64)
}

interface Round {
  callsPerSecond: number;
  calls: number;
  p50: number;
  p99: number;
  cpu: number;
  rss: number;
  requests: number;
  failed: number;
  checksFailed: number;
  mcpErrors: number;
  failedByKind: Record<string, number>;
}

/** One server on one runtime, driven once. */
async function measure(runtime: string, server: string, env: Record<string, string>): Promise<Round> {
  const port = await freePort();
  const child = spawn(BINARIES[runtime], [...workerOf(server), String(port), opts.workers], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    await listening(child, `${server} on ${runtime}`);
    const pids = tree(child.pid!);
    let peak = 0, cpuFrom = 0, cpuTo = 0;
    const sampler = setInterval(() => peak = Math.max(peak, usage(pids).rss), 200);
    const load = spawn(BUN, [
      here("./load.ts"),
      "--url",
      `http://127.0.0.1:${port}`,
      ...(server === "floor" ? ["--floor"] : []),
      ...["--vus", opts.vus, "--seconds", opts.seconds, "--warmup", opts.warmup],
    ], { stdio: ["ignore", "pipe", "inherit"] });
    const figures = await new Promise<Record<string, never>>((resolve, reject) => {
      load.once("exit", (code) => code !== 0 && reject(new Error(`load.ts exited ${code}`)));
      createInterface({ input: load.stdout! }).on("line", (line) => {
        if (line === "MEASURING") cpuFrom = usage(pids).cpu;
        else if (line === "DONE") cpuTo = usage(pids).cpu;
        else if (line.startsWith("{")) resolve(JSON.parse(line));
      });
    });
    clearInterval(sampler);
    peak = Math.max(peak, usage(pids).rss);
    return { ...figures, cpu: cpuTo - cpuFrom, rss: peak } as Round;
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.exitCode === null ? child.once("exit", resolve) : resolve(null));
  }
}

const redis = await startRedis();
const api = spawn(BUN, [here("./api.ts"), "0"], { stdio: ["ignore", "pipe", "inherit"] });
const apiPort = await listening(api, "the product API");
const env = { REDIS_URL: redis.url, API_SERVICE_URL: `http://127.0.0.1:${apiPort}` };
const pairs = RUNTIMES.flatMap((runtime) => SERVERS.map((server) => [runtime, server] as const));
const results = new Map<string, Round[]>();
try {
  for (let round = 0; round < Number(opts.rounds); round++) {
    const order = [...pairs.slice(round % pairs.length), ...pairs.slice(0, round % pairs.length)];
    for (const [runtime, server] of order) {
      const r = await measure(runtime, server, env);
      results.set(`${runtime} ${server}`, [...results.get(`${runtime} ${server}`) ?? [], r]);
      console.error(
        `round ${round + 1} ${runtime} ${server}: ${r.callsPerSecond.toFixed(0)} calls/s, p50 ${
          r.p50.toFixed(1)
        } ms, ` +
          `p99 ${r.p99.toFixed(1)} ms, CPU ${(r.cpu / r.calls * 1000).toFixed(2)} ms/call, ` +
          `failed ${r.failed}/${r.requests} ${JSON.stringify(r.failedByKind)}, checks failed ${r.checksFailed}`,
      );
    }
  }
} finally {
  api.kill("SIGTERM");
  redis.stop();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
interface Row {
  callsPerSecond: number;
  p50: number;
  p99: number;
  cpuPerCall: number;
  rss: number;
  failedRate: number;
  checksFailed: number;
  mcpErrors: number;
}
const rows = new Map<string, Row>();
for (const [key, rounds] of results) {
  const calls = rounds.reduce((s, r) => s + r.calls, 0);
  const requests = rounds.reduce((s, r) => s + r.requests, 0);
  rows.set(key, {
    callsPerSecond: rounds.reduce((s, r) => s + r.callsPerSecond, 0) / rounds.length,
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    cpuPerCall: rounds.reduce((s, r) => s + r.cpu, 0) / calls * 1000,
    rss: Math.max(...rounds.map((r) => r.rss)),
    failedRate: rounds.reduce((s, r) => s + r.failed, 0) / requests,
    checksFailed: rounds.reduce((s, r) => s + r.checksFailed, 0),
    mcpErrors: rounds.reduce((s, r) => s + r.mcpErrors, 0),
  });
}

const f = (x: number, digits = 0) =>
  x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
console.log(
  `\n${opts.rounds} rounds × ${opts.seconds} s (after ${opts.warmup} s of warm-up), ${opts.vus} virtual users, ` +
    `${opts.workers} workers per server\n`,
);
console.log(
  "| runtime | server | tool calls/s | tools/call p50 / p99 | CPU per call | peak RSS | http_req_failed | checks failed |",
);
console.log("|---|---|---|---|---|---|---|---|");
for (const [key, r] of rows) {
  const [runtime, server] = key.split(" ");
  console.log(
    `| ${runtime} | ${server} | ${f(r.callsPerSecond)} | ${f(r.p50, 1)} / ${f(r.p99, 1)} ms | ${
      f(r.cpuPerCall, 2)
    } ms | ` +
      `${f(r.rss / 2 ** 20)} MB | ${f(r.failedRate * 100, 1)} %${
        r.failedRate >= 0.05 ? " (fails k6's < 5 %)" : ""
      } | ` +
      `${r.checksFailed}${r.mcpErrors ? ` (${r.mcpErrors} MCP errors)` : ""} |`,
  );
}
console.log("\n| runtime | ours ÷ official: calls/s | CPU per call | p99 | ours ÷ floor: calls/s | CPU per call |");
console.log("|---|---|---|---|---|---|");
for (const runtime of RUNTIMES) {
  const ours = rows.get(`${runtime} ours`),
    official = rows.get(`${runtime} official`),
    floor = rows.get(`${runtime} floor`);
  if (!ours) continue;
  const x = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined ? "–" : `${f(a / b, 2)}×`;
  const before = rows.get(`${runtime} before`);
  if (before) {
    console.log(
      `\n${runtime}, ours ÷ before: calls/s ${x(ours.callsPerSecond, before.callsPerSecond)}, CPU per call ${
        x(ours.cpuPerCall, before.cpuPerCall)
      }, p99 ${x(ours.p99, before.p99)}\n`,
    );
  }
  console.log(
    `| ${runtime} | ${x(ours.callsPerSecond, official?.callsPerSecond)} | ${
      x(ours.cpuPerCall, official?.cpuPerCall)
    } | ` +
      `${x(ours.p99, official?.p99)} | ${x(ours.callsPerSecond, floor?.callsPerSecond)} | ${
        x(ours.cpuPerCall, floor?.cpuPerCall)
      } |`,
  );
}
process.exit(0);
