/**
 * gRPC unary over h2c, before and after, in CPU time: the bare `node:http2` floor, this checkout's
 * `serveGrpc()` and an earlier checkout's, all in one process with a `node:http2` client keeping 10
 * `CallTool` add(1, 2) calls in flight on one connection to each, in interleaved blocks timed by
 * `process.cpuUsage()` (median block). The client's share is the same in every row, so the differences
 * between rows are the servers' own, in µs per call; on a loaded machine, where h2load's calls per
 * second follow the scheduler (`bench/grpc-h2c.ts`), these stay readable. On Node, the script is bundled
 * with both checkouts by `bun build` first.
 *
 *   bun bench/grpc-inprocess.ts --before /tmp/before [--blocks 30] [--calls 2000] [--node]
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer as createHttp2Server } from "node:http2";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median } from "./harness.ts";
import { requestFrame } from "./grpc-h2c.ts";
import { AddInput } from "./servers/common.ts";
import { grpcFloorHandler } from "./servers/grpc-floor.ts";

/** What the rows need of a checkout: `createServer`, `defineTool` and `serveGrpc`. */
interface Checkout {
  createServer(info: { name: string; version: string }): { tool(t: unknown): unknown };
  defineTool(name: string): any;
  serveGrpc(server: unknown, options: { port: number }): Promise<{ port: number; close(): Promise<void> }>;
}

/** Starts a checkout's `serveGrpc()` over the `add` tool. */
async function ours(sdk: Checkout): Promise<{ port: number; close(): Promise<void> }> {
  const add = sdk.defineTool("add").describe("Adds two numbers").input(AddInput)
    .handle(({ a, b }: { a: number; b: number }) => ({ sum: a + b }));
  return await sdk.serveGrpc(sdk.createServer({ name: "bench", version: "1.0.0" }).tool(add), { port: 0 });
}

/** The floor of `bench/grpc-server.ts` (`servers/grpc-floor.ts`): decodes the request, answers the same bytes. */
function floor(): Promise<{ port: number; close(): Promise<void> }> {
  const server = createHttp2Server(grpcFloorHandler());
  return new Promise((ready) =>
    server.listen(0, "127.0.0.1", () =>
      ready({
        port: (server.address() as { port: number }).port,
        close: () => new Promise((done) => server.close(() => done())),
      }))
  );
}

/** Makes `calls` calls, 10 in flight, on one session; every answer must end with grpc-status 0. */
function callMany(session: ReturnType<typeof connect>, frame: Uint8Array, calls: number): Promise<void> {
  let started = 0;
  let done = 0;
  return new Promise((finished, fail) => {
    const one = () => {
      started++;
      const stream = session.request({
        ":method": "POST",
        ":path": "/mcplite.MCPLite/CallTool",
        "content-type": "application/grpc",
        te: "trailers",
      });
      let status: unknown;
      stream.on("trailers", (t) => status = t["grpc-status"]);
      stream.on("data", () => {});
      stream.on("error", fail);
      stream.on("close", () => {
        if (status !== "0") return fail(new Error(`grpc-status ${String(status)}`));
        if (++done === calls) finished();
        else if (started < calls) one();
      });
      stream.end(frame);
    };
    for (let i = 0; i < Math.min(10, calls); i++) one();
  });
}

/**
 * Times each row in CPU µs per call, interleaved blocks, median block.
 *
 * @param rows The servers by name.
 * @param blocks Blocks per row.
 * @param calls Calls per block.
 * @returns Each row's median µs per call.
 */
async function measure(
  rows: Record<string, { port: number }>,
  blocks: number,
  calls: number,
): Promise<Record<string, number[]>> {
  const frame = requestFrame();
  const sessions = Object.entries(rows).map(([name, { port }]) => ({
    name,
    session: connect(`http://127.0.0.1:${port}`),
  }));
  const times: Record<string, number[]> = {};
  try {
    for (const { name, session } of sessions) {
      times[name] = [];
      await callMany(session, frame, 10 * calls); // warm-up: the JIT settles over thousands of calls
    }
    for (let b = 0; b < blocks; b++) {
      const order = b % 2 === 0 ? sessions : [...sessions].reverse();
      for (const { name, session } of order) {
        const from = process.cpuUsage();
        await callMany(session, frame, calls);
        const used = process.cpuUsage(from);
        times[name].push((used.user + used.system) / calls);
      }
    }
  } finally {
    for (const { session } of sessions) session.close();
  }
  return times;
}

const flag = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};

/** Runs the rows in this process and prints them. */
export async function main(after: Checkout, before: Checkout): Promise<void> {
  const servers = { floor: await floor(), after: await ours(after), before: await ours(before) };
  try {
    const times = await measure(servers, Number(flag("blocks", "30")), Number(flag("calls", "2000")));
    const f = median(times.floor);
    const runtime = "Bun" in globalThis ? "bun" : "node";
    for (const [name, t] of Object.entries(times)) {
      const m = median(t);
      console.log(
        `${runtime} ${name}: ${m.toFixed(1)} µs CPU/call (client + server), +${(m - f).toFixed(1)} µs over the floor`,
      );
    }
    console.log(JSON.stringify({ runtime, times }));
  } finally {
    for (const server of Object.values(servers)) await server.close();
  }
}

if (import.meta.main) {
  const beforeRoot = resolve(flag("before", ""));
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  if (process.argv.includes("--node")) {
    // One bundle holding both checkouts, run by Node; beside node_modules (which may be shared), not in it.
    const dir = mkdtempSync(join(root, ".grpc-inprocess-"));
    try {
      const entry = join(dir, "entry.ts");
      writeFileSync(
        entry,
        `import * as after from ${JSON.stringify(join(root, "mod.ts"))};\n` +
          `import * as afterGrpc from ${JSON.stringify(join(root, "src/bindings/grpc/mod.ts"))};\n` +
          `import * as before from ${JSON.stringify(join(beforeRoot, "mod.ts"))};\n` +
          `import * as beforeGrpc from ${JSON.stringify(join(beforeRoot, "src/bindings/grpc/mod.ts"))};\n` +
          `import { main } from ${JSON.stringify(fileURLToPath(import.meta.url))};\n` +
          `await main({ ...after, ...afterGrpc }, { ...before, ...beforeGrpc });\n`,
      );
      const out = join(dir, "entry.mjs");
      const bun = join(root, "node_modules", ".bin", "bun");
      const built = spawnSync(bun, ["build", entry, "--target=node", "--packages=external", `--outfile=${out}`], {
        encoding: "utf8",
      });
      if (built.status !== 0) throw new Error(built.stderr);
      spawnSync("node", [out, ...process.argv.slice(2)], { stdio: "inherit" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } else {
    const load = async (r: string) =>
      ({
        ...await import(pathToFileURL(join(r, "mod.ts")).href),
        ...await import(pathToFileURL(join(r, "src/bindings/grpc/mod.ts")).href),
      }) as Checkout;
    await main(await load(root), await load(beforeRoot));
  }
}
