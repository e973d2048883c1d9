/**
 * `serve()` on Node against the alternatives (issue 38): MCP-lite `tools/call` over loopback, each server
 * in its own Node process, driven by autocannon from this one (10 connections, a 1 s warm-up, then a
 * fixed duration), the rows interleaved round by round. The rows:
 *
 * - `node:http, same bytes`: a bare `node:http` server that reads the body and answers the bytes
 *   `server.fetch` answers (computed once): the ceiling of any adapter;
 * - `node:http adapter`: the same server through the smallest fetch adapter on `node:http` (the body read
 *   whole, a `Request`, `server.fetch`, the answer's bytes in one `res.end`): the 90 % target's base;
 * - `serve()`: this package's `serve(server)` on Node (streams both ways, client-disconnect cancellation);
 * - `serve(), before`: with `BEFORE=<another checkout>` (an earlier commit), that checkout's `serve()`
 *   serving the same server, for a before/after ratio measured in the same run;
 * - `@hono/node-server`: `serve({ fetch: server.fetch })` (a devDependency);
 * - `srvx`: `serve({ fetch: server.fetch })`, when installed in `$SRVX_DIR` (default /tmp/srvx:
 *   `npm i --prefix /tmp/srvx srvx`; not a dependency of this package).
 *
 *   node bench/node-serve.ts [--seconds 5] [--rounds 3]   (Node 22: `bash .ci/node22.sh --path`)
 *   git archive <commit> | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   BEFORE=/tmp/before node bench/node-serve.ts   (adds the `serve(), before` row)
 *
 * @module
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { serve } from "../mod.ts";
import { ADD_PARAMS, lite } from "./requests.ts";
import { ours } from "./servers/ours.ts";

const ROWS = [
  "node:http, same bytes",
  "node:http adapter",
  "serve()",
  "serve(), before",
  "@hono/node-server",
  "srvx",
] as const;
const ONLY = process.env.ROWS?.split(",");
type Row = (typeof ROWS)[number];
const SRVX = `${process.env.SRVX_DIR ?? "/tmp/srvx"}/node_modules/srvx`;

const request = lite("/calltools", "tools/call", ADD_PARAMS);

/** Reads a Node request's body whole. */
function bodyOf(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Writes a fetch answer whole. */
async function writeWhole(response: Response, res: ServerResponse): Promise<void> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  headers["content-length"] = String(bytes.byteLength);
  res.writeHead(response.status, headers).end(bytes);
}

/** Starts one row's server on a free port; answers the port. */
async function start(row: Row): Promise<number> {
  const fetch = (r: Request) => ours.fetch(r);
  const listening = (server: ReturnType<typeof createServer>) =>
    new Promise<number>((resolve) =>
      server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port))
    );
  switch (row) {
    case "node:http, same bytes": {
      const answer = await fetch(request());
      const bytes = new Uint8Array(await answer.arrayBuffer());
      const headers: Record<string, string> = { "content-length": String(bytes.byteLength) };
      answer.headers.forEach((value, name) => (headers[name] = value));
      return listening(createServer((req, res) => void bodyOf(req).then(() => res.writeHead(200, headers).end(bytes))));
    }
    case "node:http adapter":
      return listening(createServer(async (req, res) => {
        const body = await bodyOf(req);
        const headers = new Headers();
        for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
        const method = req.method ?? "GET";
        const init = method === "GET" || method === "HEAD"
          ? { method, headers }
          : { method, headers, body: body.toString() };
        await writeWhole(await fetch(new Request(`http://${req.headers.host}${req.url}`, init)), res);
      }));
    case "serve()":
      return (await serve(ours, { port: 0, hostname: "127.0.0.1", quiet: true })).port;
    case "serve(), before": {
      const before = await import(pathToFileURL(`${process.env.BEFORE}/mod.ts`).href) as { serve: typeof serve };
      return (await before.serve(ours, { port: 0, hostname: "127.0.0.1", quiet: true })).port;
    }
    case "@hono/node-server": {
      const { serve: honoServe } = await import("@hono/node-server");
      return new Promise((resolve) =>
        honoServe({ fetch, port: 0, hostname: "127.0.0.1" }, (info) => resolve(info.port))
      );
    }
    case "srvx": {
      const { serve: srvxServe } = await import(
        createRequire(import.meta.url).resolve(`${SRVX}/dist/adapters/node.mjs`)
      );
      const server = srvxServe({ fetch, port: 0, hostname: "127.0.0.1", silent: true });
      await server.ready();
      return Number(new URL(server.url).port);
    }
  }
}

/** Runs autocannon against a port for `seconds`; answers requests/s (2xx only). */
/**
 * The CPU time (user + system, in µs) a process has used so far, from Linux's `/proc/<pid>/stat` (clock
 * ticks of 10 ms); undefined elsewhere. The server's CPU per request does not count the time it waited for
 * a core, so it reads steadier than requests/s on a loaded machine.
 */
function cpuMicros(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

async function load(
  port: number,
  seconds: number,
  pid?: number,
): Promise<{ rps: number; p99: number; bad: number; cpu?: number }> {
  const autocannon = (await import("autocannon")).default;
  const sample = request();
  const headers: Record<string, string> = {};
  sample.headers.forEach((value, name) => {
    if (name !== "host" && name !== "content-length") headers[name] = value;
  });
  const body = await sample.text();
  const path = new URL(sample.url).pathname;
  const once = (duration: number) =>
    autocannon({ url: `http://127.0.0.1:${port}${path}`, method: "POST", headers, body, connections: 10, duration });
  await once(1);
  const before = cpuMicros(pid);
  const result = await once(seconds);
  const after = cpuMicros(pid);
  const cpu = before === undefined || after === undefined ? undefined : (after - before) / result["2xx"];
  return { rps: result["2xx"] / seconds, p99: result.latency.p99, bad: result.non2xx + result.errors, cpu };
}

/** Starts a row's server in a child Node process; answers its port and a way to stop it. */
function child(row: Row): Promise<{ port: number; pid?: number; stop(): void }> {
  const proc = spawn(process.execPath, [fileURLToPath(import.meta.url), "--serve", row], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${row}: not listening after 30 s`)), 30_000);
    proc.stdout.once("data", (chunk) => {
      clearTimeout(timer);
      resolve({ port: Number(String(chunk).trim()), pid: proc.pid, stop: () => proc.kill("SIGKILL") });
    });
    proc.once("exit", (code) => reject(new Error(`${row} exited (${code})`)));
  });
}

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1];
};

if (process.argv.includes("--serve")) {
  console.log(await start(arg("--serve", "") as Row));
} else {
  const seconds = Number(arg("--seconds", "5"));
  const rounds = Number(arg("--rounds", "3"));
  const rows = ROWS.filter((row) =>
    (row !== "srvx" || existsSync(SRVX)) && (row !== "serve(), before" || process.env.BEFORE !== undefined) &&
    (ONLY === undefined || ONLY.includes(row))
  );
  const results = new Map<Row, number[]>(rows.map((row) => [row, []]));
  const cpus = new Map<Row, number[]>(rows.map((row) => [row, []]));
  for (let round = 1; round <= rounds; round++) {
    // The order rotates with the round, so no row always follows the same neighbour.
    for (const row of [...rows.slice((round - 1) % rows.length), ...rows.slice(0, (round - 1) % rows.length)]) {
      const server = await child(row);
      try {
        const { rps, p99, bad, cpu } = await load(server.port, seconds, server.pid);
        if (bad > 0) throw new Error(`${row}: ${bad} answers were not 2xx`);
        results.get(row)!.push(rps);
        if (cpu !== undefined) cpus.get(row)!.push(cpu);
        const perRequest = cpu === undefined ? "" : `, ${Math.round(cpu)} µs CPU/request`;
        console.error(`round ${round} · ${row}: ${Math.round(rps)} req/s, p99 ${p99} ms${perRequest}`);
      } finally {
        server.stop();
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const base = median(results.get("node:http adapter")!);
  console.log(`Node ${process.versions.node}, ${rounds} rounds of ${seconds} s, 10 connections, MCP-lite tools/call`);
  const baseCpu = median(cpus.get("node:http adapter")!);
  console.log("| server | req/s (median) | vs node:http adapter | server CPU µs/request (median) | vs adapter |");
  console.log("|---|---:|---:|---:|---:|");
  for (const [row, xs] of results) {
    const cpu = median(cpus.get(row)!);
    const cpuCells = Number.isNaN(cpu) || cpu === undefined
      ? "– | –"
      : `${Math.round(cpu)} | ${Math.round((cpu / baseCpu) * 100)}%`;
    console.log(`| ${row} | ${Math.round(median(xs))} | ${Math.round((median(xs) / base) * 100)}% | ${cpuCells} |`);
  }
  // Per-round ratios of serve() (same round, so the machine's load at that moment cancels out).
  const serveRps = results.get("serve()");
  for (const other of ["node:http adapter", "serve(), before", "@hono/node-server"] as const) {
    const theirs = results.get(other);
    if (serveRps === undefined || theirs === undefined) continue;
    const ratios = serveRps.map((rps, i) => rps / theirs[i]);
    const list = ratios.map((r) => r.toFixed(2)).join(", ");
    console.log(`serve() ÷ ${other} req/s, per round: ${list} (median ${median(ratios).toFixed(2)})`);
    const [ours, their] = [cpus.get("serve()")!, cpus.get(other)!];
    if (ours.length === 0 || their.length !== ours.length) continue;
    const cpuRatios = ours.map((cpu, i) => cpu / their[i]);
    const cpuList = cpuRatios.map((r) => r.toFixed(2)).join(", ");
    console.log(`serve() ÷ ${other} CPU/request, per round: ${cpuList} (median ${median(cpuRatios).toFixed(2)})`);
  }
  process.exit(0);
}
