/**
 * gRPC unary over h2c against the bare `node:http2` floor (issue 42, goal 5), measured with h2load
 * (nghttp2's native load generator, `apt-get install nghttp2-client`): `bench/grpc-server.ts` `floor` and
 * `ours` (and any earlier checkout's `ours`) each run once per runtime as their own process, are checked
 * to answer the same bytes, then driven in turn, round after round (the order flips every round), with
 * one connection and 10 streams in flight, after a second of warm-up each. Each run reads the calls per
 * second and the server's CPU time per call (`/proc/<pid>/task/<tid>/schedstat`): on a busy machine the
 * calls per second follow the scheduler, the CPU per call much less. Used by
 * `bench/guard.ts`; runs alone too:
 *
 *   bun bench/grpc-h2c.ts [--rounds 5] [--seconds 2] [--runtimes bun,node] [--before /path/to/checkout]
 *
 * @module
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:http2";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { node22 } from "./node22.ts";
import { create, fromBinary, toBinary, toJsonString } from "@bufbuild/protobuf";
import { ToolRequestSchema, ToolResponseSchema } from "../src/bindings/grpc/mod.ts";
import { median } from "./harness.ts";

/** Where h2load is installed, if it is. */
export const H2LOAD: string | undefined = ["/usr/bin/h2load", "/usr/local/bin/h2load"].find((p) => existsSync(p));

/** One server measured: `floor`, `ours`, or an earlier checkout's `ours`. */
export interface GrpcH2cRow {
  /** The row's name. */
  name: string;
  /** Calls per second, per round. */
  rps: number[];
  /** Server CPU time per call, µs, per round. */
  cpuUs: number[];
}

/** One runtime's rows. */
export interface GrpcH2cResult {
  /** `bun` or `node`. */
  runtime: string;
  /** The rows, the floor first. */
  rows: GrpcH2cRow[];
}

/**
 * The `CallTool` add(1, 2) request as one length-prefixed gRPC message.
 *
 * @returns The frame h2load sends.
 */
export function requestFrame(): Uint8Array {
  const message = toBinary(ToolRequestSchema, create(ToolRequestSchema, { name: "add", arguments: { a: 1, b: 2 } }));
  const frame = new Uint8Array(5 + message.byteLength);
  new DataView(frame.buffer).setUint32(1, message.byteLength);
  frame.set(message, 5);
  return frame;
}

/** The command that runs a checkout's `bench/grpc-server.ts` on a runtime (Node: from a bundle Bun builds). */
function serverCommand(root: string, runtime: string, out: string): [string, string[]] {
  const bun = join(root, "node_modules", ".bin", "bun");
  const file = join(root, "bench", "grpc-server.ts");
  if (runtime === "bun") return [bun, [file]];
  const built = spawnSync(bun, ["build", file, "--target=node", "--packages=external", `--outfile=${out}`], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
  });
  if (built.status !== 0) throw new Error(`bun build for node failed: ${built.stderr}`);
  // Node 22, as the tests run it, when it is here; else `node` on PATH (the row names the version it ran).
  return [node22(true) ?? "node", [out]];
}

interface Running {
  name: string;
  pid: number;
  port: number;
  stop: () => void;
}

function start(name: string, command: [string, string[]], impl: string, cwd: string): Promise<Running> {
  const child = spawn(command[0], [...command[1], impl], { cwd, stdio: ["ignore", "pipe", "inherit"] });
  const stop = () => child.kill("SIGKILL");
  return new Promise((ready, fail) => {
    let out = "";
    const timer = setTimeout(() => {
      stop();
      fail(new Error(`${name}: not listening after 30 s`));
    }, 30_000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/LISTENING (\d+)/);
      if (m) {
        clearTimeout(timer);
        ready({ name, pid: child.pid!, port: Number(m[1]), stop });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`${name} exited (${code})`));
    });
  });
}

/**
 * One call over `node:http2`: the answer's message (its timestamp and processing time left out, which
 * change with every call) and the trailers' `grpc-status`.
 */
function callOnce(port: number, frame: Uint8Array): Promise<{ body: string; status: string | undefined }> {
  return new Promise((done, fail) => {
    const session = connect(`http://127.0.0.1:${port}`);
    const timer = setTimeout(() => {
      session.destroy();
      fail(new Error("no answer in 10 s"));
    }, 10_000);
    session.on("error", fail);
    const stream = session.request({
      ":method": "POST",
      ":path": "/mcplite.MCPLite/CallTool",
      "content-type": "application/grpc",
      te: "trailers",
    });
    const chunks: Buffer[] = [];
    let status: string | undefined;
    stream.on("trailers", (t) => status = String(t["grpc-status"]));
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      clearTimeout(timer);
      session.close();
      const message = fromBinary(ToolResponseSchema, Buffer.concat(chunks).subarray(5));
      if (message.meta !== undefined) {
        message.meta.timestamp = 0n;
        message.meta.processingTimeMs = 0;
      }
      done({ body: toJsonString(ToolResponseSchema, message), status });
    });
    stream.on("error", fail);
    stream.end(frame);
  });
}

/**
 * The CPU time each thread of a process has run so far, in nanoseconds (`/proc/<pid>/task/<tid>/schedstat`,
 * first field): finer than the clock ticks of `/proc/<pid>/stat`.
 */
function threadsNs(pid: number): Map<string, number> {
  const times = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      times.set(tid, Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return times;
}

/** The CPU time run between two readings, in ns: threads born meanwhile count whole, threads that ended do not. */
function ranNs(from: Map<string, number>, to: Map<string, number>): number {
  let total = 0;
  for (const [tid, ns] of to) total += ns - (from.get(tid) ?? 0);
  return total;
}

/**
 * h2load's arguments for `CallTool` calls on one connection, 10 streams in flight.
 *
 * @param port The server's port on 127.0.0.1.
 * @param body The file holding the request frame.
 * @param seconds How long to measure.
 * @param warmUp Seconds of warm-up before, if any.
 * @returns The arguments.
 */
export function h2loadArgs(port: number, body: string, seconds: number, warmUp?: number): string[] {
  const args = [
    "-c1",
    "-m10",
    `-D${seconds}`,
    "-d",
    body,
    "-H",
    "content-type: application/grpc",
    "-H",
    "te: trailers",
  ];
  if (warmUp !== undefined) args.push(`--warm-up-time=${warmUp}s`);
  return [...args, `http://127.0.0.1:${port}/mcplite.MCPLite/CallTool`];
}

/**
 * Drives a server with h2load for `seconds`; returns calls/s and the server's CPU time per call over the
 * whole run (the connection's setup included: one per run).
 */
function drive(port: number, pid: number, body: string, seconds: number): Promise<{ rps: number; cpuUs: number }> {
  return new Promise((done, fail) => {
    const from = threadsNs(pid);
    const child = spawn(H2LOAD!, h2loadArgs(port, body, seconds), { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => out += d);
    child.stderr.on("data", (d) => out += d);
    const kill = setTimeout(() => child.kill("SIGKILL"), (seconds + 20) * 1000);
    child.on("exit", () => {
      const to = threadsNs(pid);
      clearTimeout(kill);
      const m = out.match(/requests: (\d+) total, \d+ started, \d+ done, (\d+) succeeded/);
      if (m === null || Number(m[2]) === 0 || Number(m[2]) < Number(m[1]) * 0.99) {
        fail(new Error(`h2load: ${out.slice(-300)}`));
        return;
      }
      const calls = Number(m[2]);
      done({ rps: calls / seconds, cpuUs: ranNs(from, to) / 1e3 / calls });
    });
  });
}

/**
 * Measures the floor, our `serveGrpc()` and, given checkouts, their `serveGrpc()`, on each runtime.
 *
 * @param options The project root, the rounds, the seconds per run, the runtimes, earlier checkouts.
 * @returns One result per runtime.
 */
export async function grpcH2c(
  options: { root: string; rounds: number; seconds: number; runtimes: string[]; before?: Record<string, string> },
): Promise<GrpcH2cResult[]> {
  if (H2LOAD === undefined) throw new Error("h2load is not installed (Debian: apt-get install nghttp2-client)");
  const frame = requestFrame();
  // Beside node_modules (which may be shared between checkouts), not in it: the bundles resolve from there.
  const tmp = mkdtempSync(join(options.root, ".grpc-h2c-"));
  const body = join(tmp, "request.bin");
  writeFileSync(body, frame);
  const results: GrpcH2cResult[] = [];
  try {
    for (const runtime of options.runtimes) {
      const servers: Running[] = [];
      try {
        const ours = serverCommand(options.root, runtime, join(tmp, "ours.mjs"));
        servers.push(await start("floor", ours, "floor", options.root));
        servers.push(await start("ours", ours, "ours", options.root));
        for (const [name, root] of Object.entries(options.before ?? {})) {
          servers.push(await start(name, serverCommand(root, runtime, join(tmp, `${name}.mjs`)), "ours", root));
        }
        // Same bytes: every server answers the floor's message and grpc-status 0.
        const expected = await callOnce(servers[0].port, frame);
        for (const server of servers.slice(1)) {
          const got = await callOnce(server.port, frame);
          if (got.body !== expected.body || got.status !== "0") {
            throw new Error(
              `${runtime} ${server.name} answers ${got.body} (${got.status}), the floor ${expected.body}`,
            );
          }
        }
        // Warm-up: each server's code optimised before the first measured run.
        for (const server of servers) await drive(server.port, server.pid, body, 1);
        const rows = servers.map((s): GrpcH2cRow => ({ name: s.name, rps: [], cpuUs: [] }));
        for (let round = 0; round < options.rounds; round++) {
          const order = servers.map((_, i) => i);
          if (round % 2 === 1) order.reverse();
          for (const i of order) {
            const { rps, cpuUs } = await drive(servers[i].port, servers[i].pid, body, options.seconds);
            rows[i].rps.push(rps);
            rows[i].cpuUs.push(cpuUs);
          }
        }
        results.push({ runtime, rows });
      } finally {
        for (const server of servers) server.stop();
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return results;
}

/**
 * A row's share of the floor, per round: the floor's calls/s over its, or its CPU per call over the floor's.
 *
 * @param floor The floor's row.
 * @param row The row.
 * @returns The ratios by calls/s and by CPU per call, per round.
 */
export function shares(floor: GrpcH2cRow, row: GrpcH2cRow): { rps: number[]; cpu: number[] } {
  return {
    rps: row.rps.map((r, i) => r / floor.rps[i]),
    cpu: row.cpuUs.map((c, i) => floor.cpuUs[i] / c),
  };
}

if (import.meta.main ?? process.argv[1]?.endsWith("grpc-h2c.ts")) {
  const flag = (name: string, fallback: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i === -1 ? fallback : process.argv[i + 1];
  };
  const before = flag("before", "");
  const results = await grpcH2c({
    root: resolve(dirname(fileURLToPath(import.meta.url)), ".."),
    rounds: Number(flag("rounds", "5")),
    seconds: Number(flag("seconds", "2")),
    runtimes: flag("runtimes", "bun,node").split(","),
    before: before === "" ? undefined : { before },
  });
  const pct = (xs: number[]) =>
    `${(median(xs) * 100).toFixed(0)}% (${(Math.min(...xs) * 100).toFixed(0)}–${(Math.max(...xs) * 100).toFixed(0)})`;
  for (const { runtime, rows } of results) {
    for (const row of rows) {
      const s = shares(rows[0], row);
      console.log(
        `${runtime} ${row.name}: ${median(row.rps).toFixed(0)} calls/s, ${median(row.cpuUs).toFixed(1)} µs CPU/call; ` +
          `of the floor: calls/s ${pct(s.rps)}, CPU/call ${pct(s.cpu)}`,
      );
    }
  }
  console.log(JSON.stringify(results));
}
