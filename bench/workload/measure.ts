/**
 * The workload's measuring pieces, shared by `run.ts` (the table) and `bench/guard.ts` (its workload row):
 * the backends (Redis seeded, the product API), one server on one runtime driven once by `load.ts` in its
 * own process, and a row summed over rounds. Measured in the load's window only: tool calls/s, tools/call
 * p50/p99, the server's CPU time per call (user + system of every process of the server, from
 * /proc/<pid>/stat), the load generator's (the client's side of every request, on the same cores) and the
 * server's peak RSS (the sum over its processes, sampled every 200 ms).
 *
 * @module
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import process from "node:process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { freePort, REDIS_SERVER, startRedis } from "./redis.ts";
export { node22 } from "../node22.ts";

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** Bun: this process's when it is Bun's, else `bun` on `PATH`. The load generator and the API run on it. */
export const BUN: string = process.execPath.includes("bun") ? process.execPath : "bun";

/** Why the workload cannot run here (`redis-server` missing, and how to install it), or `undefined`. */
export function redisMissing(): string | undefined {
  return spawnSync(REDIS_SERVER, ["--version"]).status === 0
    ? undefined
    : `no ${REDIS_SERVER} on PATH: install Debian's package (apt-get install redis-server) or set REDIS_SERVER`;
}

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
export function usage(pids: number[]): { cpu: number; rss: number } {
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

/** Redis (seeded) and the product API, running; `env` tells a server where they are. */
export interface Backends {
  /** `REDIS_URL` and `API_SERVICE_URL` for the servers. */
  env: Record<string, string>;
  /** Stops both. */
  stop(): void;
}

/**
 * Starts `redis-server` (seeded as the benchmark's seeder does) and the product API (`api.ts`, on Bun).
 *
 * @returns Both, running.
 */
export async function startBackends(): Promise<Backends> {
  const redis = await startRedis();
  const api = spawn(BUN, [here("./api.ts"), "0"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const apiPort = await listening(api, "the product API");
    return {
      env: { REDIS_URL: redis.url, API_SERVICE_URL: `http://127.0.0.1:${apiPort}` },
      stop: () => (api.kill("SIGTERM"), redis.stop()),
    };
  } catch (error) {
    api.kill("SIGTERM");
    redis.stop();
    throw error;
  }
}

/** How a server is driven: the load's window and users, and the server's worker processes. */
export interface LoadOptions {
  /** The measured window, seconds. */
  seconds: number;
  /** Seconds of load before the window opens. */
  warmup: number;
  /** Virtual users. */
  vus: number;
  /** Worker processes of the server, sharing its port. */
  workers: number;
}

/** One server driven once: what `load.ts` counted, and the server's CPU seconds and peak RSS bytes. */
export interface Round {
  callsPerSecond: number;
  calls: number;
  p50: number;
  p99: number;
  cpu: number;
  /** The load generator's CPU seconds over the same window (it shares the cores with the server). */
  loadCpu: number;
  rss: number;
  requests: number;
  failed: number;
  checksFailed: number;
  mcpErrors: number;
  failedByKind: Record<string, number>;
}

/**
 * One server on one runtime, on `options.workers` processes (`worker.ts`), driven once by `load.ts`.
 *
 * @param binary The runtime's program (`node22()`, {@link BUN}).
 * @param server `ours`, `official`, `floor` or `floor-mcp` (`worker.ts`'s names; only `floor` is driven by
 *   plain `POST /tools/<name>` calls, every other one by MCP sessions).
 * @param env The backends' {@link Backends.env}.
 * @param options The load.
 * @param worker The `worker.ts` that runs it (another checkout's, to measure before ÷ after; this one's by default).
 * @returns The round's figures.
 */
export async function measure(
  binary: string,
  server: string,
  env: Record<string, string>,
  options: LoadOptions,
  worker: string = here("./worker.ts"),
): Promise<Round> {
  const port = await freePort();
  const child = spawn(binary, [worker, server, String(port), String(options.workers)], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    await listening(child, `${server} on ${binary}`);
    const pids = tree(child.pid!);
    let peak = 0, cpuFrom = 0, cpuTo = 0, loadFrom = 0, loadTo = 0;
    const sampler = setInterval(() => peak = Math.max(peak, usage(pids).rss), 200);
    const load = spawn(BUN, [
      here("./load.ts"),
      "--url",
      `http://127.0.0.1:${port}`,
      ...(server === "floor" ? ["--floor"] : []),
      ...["--vus", options.vus, "--seconds", options.seconds, "--warmup", options.warmup].map(String),
    ], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      const figures = await new Promise<Record<string, never>>((resolve, reject) => {
        load.once("exit", (code) => code !== 0 && reject(new Error(`load.ts exited ${code}`)));
        createInterface({ input: load.stdout! }).on("line", (line) => {
          if (line === "MEASURING") cpuFrom = usage(pids).cpu, loadFrom = usage([load.pid!]).cpu;
          else if (line === "DONE") cpuTo = usage(pids).cpu, loadTo = usage([load.pid!]).cpu;
          else if (line.startsWith("{")) resolve(JSON.parse(line));
        });
      });
      peak = Math.max(peak, usage(pids).rss);
      return { ...figures, cpu: cpuTo - cpuFrom, loadCpu: loadTo - loadFrom, rss: peak } as Round;
    } finally {
      clearInterval(sampler);
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.exitCode === null ? child.once("exit", resolve) : resolve(null));
  }
}

/** A server's rounds summed up. */
export interface Row {
  /** Mean over the rounds. */
  callsPerSecond: number;
  /** Median over the rounds, ms. */
  p50: number;
  /** Median over the rounds, ms. */
  p99: number;
  /** Server CPU ms per call over all rounds. */
  cpuPerCall: number;
  /** The load generator's CPU ms per call over all rounds. */
  loadCpuPerCall: number;
  /** Peak RSS over the rounds, bytes. */
  rss: number;
  /** k6's `http_req_failed` rate over all rounds. */
  failedRate: number;
  checksFailed: number;
  mcpErrors: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Sums a server's rounds into its row.
 *
 * @param rounds At least one.
 * @returns The row.
 */
export function summarize(rounds: Round[]): Row {
  const calls = rounds.reduce((s, r) => s + r.calls, 0);
  const requests = rounds.reduce((s, r) => s + r.requests, 0);
  return {
    callsPerSecond: rounds.reduce((s, r) => s + r.callsPerSecond, 0) / rounds.length,
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    cpuPerCall: rounds.reduce((s, r) => s + r.cpu, 0) / calls * 1000,
    loadCpuPerCall: rounds.reduce((s, r) => s + r.loadCpu, 0) / calls * 1000,
    rss: Math.max(...rounds.map((r) => r.rss)),
    failedRate: rounds.reduce((s, r) => s + r.failed, 0) / requests,
    checksFailed: rounds.reduce((s, r) => s + r.checksFailed, 0),
    mcpErrors: rounds.reduce((s, r) => s + r.mcpErrors, 0),
  };
}
