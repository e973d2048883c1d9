/**
 * Scenario 3: `tools/call` over loopback. For each runtime, round and server, starts
 * `bench/loopback-server.ts` in its own process, drives it from another process with autocannon and,
 * when installed, wrk (10 connections, a fixed duration, each after a 1 s warm-up), then reads the
 * server's RSS from /proc and stops it. Every child has a time limit. Used by `bench/run.ts`; runs
 * alone too:
 *
 *   bun bench/loopback.ts [--rounds 1] [--seconds 5] [--runtimes bun,deno] [--servers floor,ours]
 *     [--grpc | --grpc-only]
 *
 * @module
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { H2LOAD, h2loadArgs, requestFrame } from "./grpc-h2c.ts";
import { ADD_PARAMS, legacy, lite, modern, type RequestFactory } from "./requests.ts";

/** One loopback run. */
export interface LoopbackResult {
  /** `bun` or `deno`. */
  runtime: string;
  /** The row name. */
  impl: string;
  /** The floor row it is compared with. */
  floor: string;
  /** The round. */
  round: number;
  /** The load generator: `autocannon`, or `wrk` when installed. */
  tool: "autocannon" | "wrk";
  /** Requests per second (2xx only). */
  rps: number;
  /** Median latency, ms (autocannon records whole milliseconds; wrk microseconds). */
  p50: number;
  /** 99th percentile latency, ms. */
  p99: number;
  /** Server RSS after the run, MB. */
  rssMb: number;
  /**
   * Server CPU time (user + system, every thread, from /proc) per request answered during the run, µs:
   * unlike req/s, it does not move when other processes share the cores.
   */
  cpuUs: number;
  /** What went wrong, if the run did not count. */
  error?: string;
}

/**
 * The rows: a server module, the request it answers, and the floor row it is compared with. The floor
 * is run with each request shape (the same bytes on the wire): on Deno 2.9.5 a request of more than
 * about 500 bytes loses keep-alive (denoland/deno#36657), so a floor fed small requests would flatter
 * the floor and punish the MCP 2026-07-28 rows.
 */
const ROWS: [row: string, server: string, request: RequestFactory, floor: string][] = [
  ["floor · MCP-lite request", "floor", lite("/calltools", "tools/call", ADD_PARAMS), "floor · MCP-lite request"],
  ["floor · MCP 2026-07-28 request", "floor", modern("tools/call", ADD_PARAMS), "floor · MCP 2026-07-28 request"],
  ["floor · MCP 2025 request", "floor", legacy("tools/call", ADD_PARAMS), "floor · MCP 2025 request"],
  // The floor reading the URL and the headers the specs make us check: the part of the gap that is the checks.
  [
    "floor + checked headers · MCP 2026-07-28 request",
    "floor-reads",
    modern("tools/call", ADD_PARAMS),
    "floor · MCP 2026-07-28 request",
  ],
  ["ours · MCP-lite", "ours", lite("/calltools", "tools/call", ADD_PARAMS), "floor · MCP-lite request"],
  ["ours · MCP 2026-07-28", "ours", modern("tools/call", ADD_PARAMS), "floor · MCP 2026-07-28 request"],
  ["ours · MCP 2025", "ours", legacy("tools/call", ADD_PARAMS), "floor · MCP 2025 request"],
  ["mcp-lite · MCP 2025", "mcp-lite", legacy("tools/call", ADD_PARAMS), "floor · MCP 2025 request"],
  ["tmcp · MCP 2026-07-28", "tmcp", modern("tools/call", ADD_PARAMS), "floor · MCP 2026-07-28 request"],
  ["SDK v2 · MCP 2026-07-28", "sdk", modern("tools/call", ADD_PARAMS), "floor · MCP 2026-07-28 request"],
];

function startServer(
  root: string,
  runtime: string,
  server: string,
): Promise<{ pid: number; port: number; stop(): void }> {
  const bin = join(root, "node_modules", ".bin", runtime);
  const file = join("bench", "loopback-server.ts");
  const args = runtime === "deno" ? ["run", "-A", file, server] : [file, server];
  const child = spawn(bin, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  const stop = () => {
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 2000).unref?.();
  };
  return new Promise((ready, fail) => {
    let out = "", err = "";
    const timer = setTimeout(() => {
      stop();
      fail(new Error(`${runtime} ${server}: not listening after 30 s ${err.slice(-300)}`));
    }, 30_000);
    child.stderr.on("data", (d) => (err += d));
    child.stdout.on("data", (d) => {
      out += d;
      const port = out.match(/LISTENING (\d+)/)?.[1];
      if (port !== undefined) {
        clearTimeout(timer);
        ready({ pid: child.pid!, port: Number(port), stop });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`${runtime} ${server} exited (${code}) ${err.slice(-300)}`));
    });
  });
}

/** What a load generator measured. */
interface Load {
  /** Server CPU per request, µs. */
  cpuUs: number;
  rps: number;
  p50: number;
  p99: number;
  bad: number;
  total: number;
}

function run(
  cmd: string,
  args: string[],
  timeoutMs: number,
  cwd: string,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "", err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, out, err });
    });
  });
}

/** The request's parts, as a load generator sends them (it sets Host and Content-Length itself). */
async function partsOf(request: Request): Promise<{ path: string; headers: [string, string][]; body: string }> {
  const headers: [string, string][] = [];
  request.headers.forEach((value, key) => {
    if (key !== "host" && key !== "content-length") headers.push([key, value]);
  });
  return { path: new URL(request.url).pathname, headers, body: await request.text() };
}

async function autocannon(
  root: string,
  server: { pid: number; port: number },
  request: Request,
  seconds: number,
): Promise<Load> {
  const { path, headers, body } = await partsOf(request);
  const args = (seconds: number) => [
    join(root, "node_modules", "autocannon", "autocannon.js"),
    "-c",
    "10",
    "-d",
    String(seconds),
    "-m",
    "POST",
    "-b",
    body,
    ...headers.flatMap(([k, v]) => ["-H", `${k}=${v}`]),
    "-j",
    "-n",
    `http://127.0.0.1:${server.port}${path}`,
  ];
  // The warm-up is a run of its own, so that the server's CPU is read around the measured run only.
  await run("node", args(1), 60_000, root);
  const cpu = cpuSeconds(server.pid);
  const { code, out, err } = await run("node", args(seconds), (seconds + 30) * 1000, root);
  const cpuUsed = cpuSeconds(server.pid) - cpu;
  let report: Record<string, any>;
  try {
    report = JSON.parse(out.trim().split("\n").pop() ?? "");
  } catch {
    throw new Error(`autocannon exited ${code}: ${err.slice(-300)}`);
  }
  const total = report.requests?.total ?? 0;
  const bad = (report.non2xx ?? 0) + (report.errors ?? 0) + (report.timeouts ?? 0);
  return {
    rps: (total - bad) / seconds,
    p50: report.latency?.p50 ?? NaN,
    p99: report.latency?.p99 ?? NaN,
    bad,
    total,
    cpuUs: (cpuUsed / total) * 1e6,
  };
}

const WRK = ["/usr/bin/wrk", "/usr/local/bin/wrk"].find((p) => existsSync(p));

/** Whether wrk is installed (Debian: `apt-get install wrk`). */
export const HAS_WRK: boolean = WRK !== undefined;

async function wrk(
  root: string,
  server: { pid: number; port: number },
  request: Request,
  seconds: number,
): Promise<Load> {
  const port = server.port;
  const { path, headers, body } = await partsOf(request);
  const script = join(tmpdir(), `mcplite-bench-${process.pid}.lua`);
  writeFileSync(
    script,
    `wrk.method = "POST"\nwrk.body = ${JSON.stringify(body)}\n` +
      headers.map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}\n`).join(""),
  );
  const url = `http://127.0.0.1:${port}${path}`;
  await run(WRK!, ["-t1", "-c10", "-d1s", "-s", script, url], 30_000, root); // warm-up
  const cpu = cpuSeconds(server.pid);
  const { out, err } = await run(
    WRK!,
    ["-t1", "-c10", `-d${seconds}s`, "--latency", "-s", script, url],
    (seconds + 30) * 1000,
    root,
  );
  const cpuUsed = cpuSeconds(server.pid) - cpu;
  const ms = (label: string) => {
    const m = out.match(new RegExp(`^\\s*${label}%\\s+([\\d.]+)(us|ms|s)`, "m"));
    return m === null ? NaN : Number(m[1]) * (m[2] === "us" ? 1e-3 : m[2] === "s" ? 1e3 : 1);
  };
  const total = Number(out.match(/(\d+) requests in/)?.[1] ?? 0);
  const bad = Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0) +
    [...out.matchAll(/(?:connect|read|write|timeout) (\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
  if (total === 0) throw new Error(`wrk: ${err.slice(-300) || out.slice(-300)}`);
  return { rps: (total - bad) / seconds, p50: ms("50"), p99: ms("99"), bad, total, cpuUs: (cpuUsed / total) * 1e6 };
}

/** A process's CPU time so far, user + system of every thread, s (proc(5): fields 14 and 15 of `stat`). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields counted from 3 (the state) after the command name; clock ticks, 100 per second on Linux.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(status.match(/VmRSS:\s*(\d+)/)?.[1] ?? NaN) / 1024;
}

/**
 * Runs every loopback row, round by round (rows interleaved within a round).
 *
 * @param options The rounds, the seconds per run, the project root, the runtimes and, to run fewer
 *   rows while working, the servers (`floor`, `floor-reads`, `ours`, `mcp-lite`, `tmcp`, `sdk`).
 * @returns One result per run.
 */
export async function runLoopback(
  options: { rounds: number; seconds: number; root: string; runtimes: string[]; servers?: string[] },
): Promise<LoopbackResult[]> {
  const results: LoopbackResult[] = [];
  const rows = ROWS.filter(([, server]) => options.servers === undefined || options.servers.includes(server));
  for (let round = 0; round < options.rounds; round++) {
    for (const runtime of options.runtimes) {
      for (const [impl, server, request, floor] of rows) {
        let stop = () => {};
        const tools = HAS_WRK ? (["autocannon", "wrk"] as const) : (["autocannon"] as const);
        try {
          const started = await startServer(options.root, runtime, server);
          stop = started.stop;
          for (const tool of tools) {
            const load = await (tool === "wrk" ? wrk : autocannon)(
              options.root,
              started,
              request(),
              options.seconds,
            );
            results.push({
              runtime,
              impl,
              floor,
              round,
              tool,
              rps: load.rps,
              p50: load.p50,
              p99: load.p99,
              rssMb: rssMb(started.pid),
              cpuUs: load.cpuUs,
              error: load.total === 0 || load.bad > load.total / 100
                ? `errors: ${load.bad} of ${load.total}`
                : undefined,
            });
          }
        } catch (error) {
          for (const tool of tools) {
            results.push({
              runtime,
              impl,
              floor,
              round,
              tool,
              rps: NaN,
              p50: NaN,
              p99: NaN,
              rssMb: NaN,
              cpuUs: NaN,
              error: String(error).slice(0, 200),
            });
          }
        } finally {
          stop();
        }
        for (const r of results.filter((r) => r.round === round && r.runtime === runtime && r.impl === impl)) {
          const line = r.error ??
            `${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.rssMb.toFixed(0)} MB, ${
              r.cpuUs.toFixed(1)
            } µs CPU/req`;
          console.error(`  loopback ${runtime} ${r.tool} ${impl}: ${line}`);
        }
      }
    }
  }
  return results;
}

/** One gRPC loopback run (scenario 4). */
export interface GrpcResult {
  /** The server's runtime: `bun` or `node`. */
  runtime: string;
  /** `floor` or `ours`. */
  impl: string;
  /** The load generator: `grpc-js`, and `h2load` when installed. */
  tool: GrpcTool;
  /** The round. */
  round: number;
  /** Completed calls per second. */
  rps: number;
  /** Median latency, ms (h2load reports no percentiles: its mean). */
  p50: number;
  /** 99th percentile latency, ms (NaN from h2load). */
  p99: number;
  /** Server RSS after the run, MB. */
  rssMb: number;
  /** What went wrong, if the run did not count. */
  error?: string;
}

function grpcServerCommand(root: string, runtime: string): [string, string[]] {
  const file = join("bench", "grpc-server.ts");
  if (runtime === "bun") return [join(root, "node_modules", ".bin", "bun"), [file]];
  const out = join(root, "node_modules", ".cache", "mcplite-bench", "grpc-server.mjs");
  mkdirSync(dirname(out), { recursive: true });
  const built = spawnSync(
    join(root, "node_modules", ".bin", "bun"),
    ["build", file, "--target=node", "--packages=external", `--outfile=${out}`],
    { cwd: root, encoding: "utf8", timeout: 60_000 },
  );
  if (built.status !== 0) throw new Error(`bun build for node failed: ${built.stderr}`);
  return ["node", [out]];
}

/** The gRPC rows: the floor, `serveGrpc()`, and `serveGrpc()` with every call through Connect's adapter. */
export const GRPC_IMPLS = ["floor", "ours", "ours-connect"] as const;

/** The gRPC load generators. */
export type GrpcTool = "grpc-js" | "h2load";

/** Whether h2load is installed (Debian: `apt-get install nghttp2-client`). */
export const HAS_H2LOAD: boolean = H2LOAD !== undefined;

/** The `CallTool` add(1, 2) request as one length-prefixed gRPC message, in a file h2load sends. */
function grpcBodyFile(): string {
  const file = join(tmpdir(), `mcplite-bench-grpc-${process.pid}.bin`);
  writeFileSync(file, requestFrame());
  return file;
}

/**
 * Drives a gRPC server with h2load (nghttp2's native HTTP/2 load generator): one connection, 10
 * streams in flight, 1 s of warm-up. h2load checks only the HTTP status, so the caller runs grpc-js
 * first, which checks each answer, against the same server.
 */
async function h2load(root: string, port: number, body: string, seconds: number): Promise<Load> {
  const { out, err } = await run(
    H2LOAD!,
    h2loadArgs(port, body, seconds, 1),
    (seconds + 30) * 1000,
    root,
  );
  const done = out.match(/requests: \d+ total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored/);
  if (done === null) throw new Error(`h2load: ${err.slice(-300) || out.slice(-300)}`);
  const succeeded = Number(done[2]);
  const total = Number(done[1]);
  const mean = out.match(/time for request:\s+\S+\s+\S+\s+([\d.]+)(us|ms|s)/);
  const meanMs = mean === null ? NaN : Number(mean[1]) * (mean[2] === "us" ? 1e-3 : mean[2] === "s" ? 1e3 : 1);
  return { rps: succeeded / seconds, p50: meanMs, p99: NaN, bad: total - succeeded, total, cpuUs: NaN };
}

/**
 * Runs the gRPC loopback rows (scenario 4): `serveGrpc()` and a bare `node:http2` gRPC floor, each in
 * its own process, driven from another process with 10 calls in flight on one HTTP/2 connection: by
 * `bench/grpc-load.mjs` (@grpc/grpc-js under Node, which checks every answer) and then, when installed,
 * by h2load against the same server. grpc-js is the client most users run, but under Node it spends
 * most of a core itself, so it bounds the floor; h2load measures the servers.
 *
 * @param options The rounds, the seconds per run, the project root and the server runtimes.
 * @returns One result per run and load generator.
 */
export async function runGrpcLoopback(
  options: { rounds: number; seconds: number; root: string; runtimes: string[] },
): Promise<GrpcResult[]> {
  const results: GrpcResult[] = [];
  const commands = new Map(options.runtimes.map((r) => [r, grpcServerCommand(options.root, r)]));
  const body = HAS_H2LOAD ? grpcBodyFile() : undefined;
  for (let round = 0; round < options.rounds; round++) {
    for (const runtime of options.runtimes) {
      for (const impl of GRPC_IMPLS) {
        const [cmd, args] = commands.get(runtime)!;
        const child = spawn(cmd, [...args, impl], { cwd: options.root, stdio: ["ignore", "pipe", "pipe"] });
        const tools: GrpcTool[] = body === undefined ? ["grpc-js"] : ["grpc-js", "h2load"];
        const failed = (tool: GrpcTool, error: string): GrpcResult => ({
          runtime,
          impl,
          tool,
          round,
          rps: NaN,
          p50: NaN,
          p99: NaN,
          rssMb: NaN,
          error: error.slice(0, 200),
        });
        const from = results.length;
        try {
          const port = await new Promise<number>((ready, fail) => {
            let out = "";
            const timer = setTimeout(
              () => fail(new Error(`${runtime} gRPC ${impl}: not listening after 30 s`)),
              30_000,
            );
            child.stdout.on("data", (d) => {
              out += d;
              const m = out.match(/LISTENING (\d+)/);
              if (m) {
                clearTimeout(timer);
                ready(Number(m[1]));
              }
            });
            child.on("exit", (code) => {
              clearTimeout(timer);
              fail(new Error(`${runtime} gRPC ${impl} exited (${code})`));
            });
          });
          const { out, err } = await run(
            "node",
            [join(options.root, "bench", "grpc-load.mjs"), `127.0.0.1:${port}`, String(options.seconds)],
            (options.seconds + 60) * 1000,
            options.root,
          );
          const report = JSON.parse(out.trim().split("\n").pop() || "null") as
            | { rps: number; p50: number; p99: number; total: number; errors: number }
            | null;
          if (report === null) throw new Error(`grpc-load: ${err.slice(-300)}`);
          const wrong = report.total === 0 || report.errors > report.total / 100
            ? `errors: ${report.errors} of ${report.total}`
            : undefined;
          results.push({
            runtime,
            impl,
            tool: "grpc-js",
            round,
            rps: report.rps,
            p50: report.p50,
            p99: report.p99,
            rssMb: rssMb(child.pid!),
            error: wrong,
          });
          if (body !== undefined) {
            // Counted only if grpc-js found the server's answers right.
            if (wrong !== undefined) results.push(failed("h2load", `grpc-js saw ${wrong}`));
            else {
              const load = await h2load(options.root, port, body, options.seconds);
              results.push({
                runtime,
                impl,
                tool: "h2load",
                round,
                rps: load.rps,
                p50: load.p50,
                p99: load.p99,
                rssMb: rssMb(child.pid!),
                error: load.total === 0 || load.bad > load.total / 100
                  ? `errors: ${load.bad} of ${load.total}`
                  : undefined,
              });
            }
          }
        } catch (error) {
          for (const tool of tools.slice(results.length - from)) results.push(failed(tool, String(error)));
        } finally {
          child.kill("SIGKILL");
        }
        for (const r of results.slice(from)) {
          console.error(
            `  gRPC ${runtime} ${r.tool} ${impl}: ${
              r.error ??
                `${r.rps.toFixed(0)} calls/s, ${r.tool === "h2load" ? "mean" : "p50"} ${r.p50.toFixed(2)} ms, p99 ${
                  r.p99.toFixed(2)
                } ms, ${r.rssMb.toFixed(0)} MB`
            }`,
          );
        }
      }
    }
  }
  return results;
}

if (import.meta.main ?? process.argv[1]?.endsWith("loopback.ts")) {
  const flag = (name: string, fallback: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i === -1 ? fallback : process.argv[i + 1];
  };
  if (!process.argv.includes("--grpc-only")) {
    const results = await runLoopback({
      rounds: Number(flag("rounds", "1")),
      seconds: Number(flag("seconds", "5")),
      root: resolve(dirname(fileURLToPath(import.meta.url)), ".."),
      runtimes: flag("runtimes", "bun,deno").split(","),
      servers: process.argv.includes("--servers") ? flag("servers", "").split(",") : undefined,
    });
    console.log(JSON.stringify(results, null, 2));
  }
  if (process.argv.includes("--grpc") || process.argv.includes("--grpc-only")) {
    const grpc = await runGrpcLoopback({
      rounds: Number(flag("rounds", "1")),
      seconds: Number(flag("seconds", "5")),
      root: resolve(dirname(fileURLToPath(import.meta.url)), ".."),
      runtimes: ["bun", "node"],
    });
    console.log(JSON.stringify(grpc, null, 2));
  }
}
