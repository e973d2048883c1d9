/**
 * One process against two on one port (`serve(server, { reusePort: true })`, examples/many-cores.ts): for
 * each runtime, rounds alternate 1 and 2 server processes, each run driven by h2load over HTTP/1.1 (32
 * connections, keep-alive, a fixed duration after a 1 s warm-up) with MCP-lite `tools/call` of `whoami`.
 * Prints each run and, per runtime, the ratio of two processes' calls/s to one's in this run, and the
 * servers' CPU per call (from /proc). The load generator runs on the same cores as the servers.
 *
 *   bun bench/many-cores.ts [--rounds 2] [--seconds 5] [--runtimes bun,node,deno]
 *
 * @module
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const ROUNDS = Number(arg("rounds", "2"));
const SECONDS = Number(arg("seconds", "5"));
const RUNTIMES = arg("runtimes", "bun,node,deno").split(",");
const CONNECTIONS = 32;

/** Each runtime's command for the example, or undefined when not installed here. */
function command(runtime: string): string[] | undefined {
  const script = join(ROOT, "examples/many-cores.ts");
  if (runtime === "bun") return [join(ROOT, "node_modules/.bin/bun"), "run", script];
  if (runtime === "deno") return [join(ROOT, "node_modules/.bin/deno"), "run", "-A", "--unstable-net", script];
  const node = spawnSync("bash", [join(ROOT, ".ci/node22.sh"), "--path"], { encoding: "utf8" }).stdout.trim();
  return existsSync(node) ? [node, script] : undefined;
}

/** Starts one server process on `port`; resolves with its pid once it listens. */
function start(argv: string[], port: number): Promise<{ pid: number; stop(): Promise<void> }> {
  const child = spawn(argv[0], argv.slice(1), {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOSTNAME: "127.0.0.1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("did not listen in 60 s")), 60_000);
    let err = "";
    child.stderr!.on("data", (chunk) => {
      err += chunk;
      if (!err.includes("Listening on")) return;
      clearTimeout(timer);
      resolve({
        pid: child.pid!,
        stop: () =>
          new Promise((done) => {
            child.once("exit", () => done());
            child.kill();
          }),
      });
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

/** A process's CPU time so far, user + system, s (proc(5), `stat` fields 14 and 15). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const BODY = join(tmpdir(), "many-cores-body.json");
writeFileSync(
  BODY,
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } }),
);

/** Drives the port with h2load over HTTP/1.1 for `seconds`: calls/s answered 2xx, and how many. */
function load(port: number, seconds: number): { rps: number; ok: number; failed: number } {
  const out = spawnSync("h2load", [
    "--h1",
    "-c",
    String(CONNECTIONS),
    "-D",
    String(seconds),
    "-d",
    BODY,
    "-H",
    "content-type: application/json",
    `http://127.0.0.1:${port}/mcp-lite/v1/calltools`,
  ], { encoding: "utf8", timeout: (seconds + 30) * 1000 }).stdout;
  const ok = Number(/status codes: (\d+) 2xx/.exec(out)?.[1] ?? 0);
  const failed = Number(/requests: \d+ total, \d+ started, \d+ done, \d+ succeeded, (\d+) failed/.exec(out)?.[1] ?? 0);
  return { rps: ok / seconds, ok, failed };
}

let port = 47_300;
const summary: string[] = [];
for (const runtime of RUNTIMES) {
  const argv = command(runtime);
  if (argv === undefined) {
    console.log(`${runtime}: not installed, skipped`);
    continue;
  }
  const runs: Record<1 | 2, { rps: number[]; cpuUs: number[] }> = {
    1: { rps: [], cpuUs: [] },
    2: { rps: [], cpuUs: [] },
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const processes of (round % 2 === 0 ? [1, 2] : [2, 1]) as (1 | 2)[]) {
      port++;
      const servers = [];
      for (let i = 0; i < processes; i++) servers.push(await start(argv, port));
      load(port, 1); // warm-up
      const cpu = servers.reduce((sum, s) => sum + cpuSeconds(s.pid), 0);
      const result = load(port, SECONDS);
      const used = servers.reduce((sum, s) => sum + cpuSeconds(s.pid), 0) - cpu;
      await Promise.all(servers.map((s) => s.stop()));
      const cpuUs = used / result.ok * 1e6;
      runs[processes].rps.push(result.rps);
      runs[processes].cpuUs.push(cpuUs);
      console.log(
        `${runtime} round ${round + 1}, ${processes} process(es): ${result.rps.toFixed(0)} calls/s, ` +
          `${cpuUs.toFixed(0)} µs server CPU per call, ${result.failed} failed`,
      );
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  summary.push(
    `${runtime}: 2 processes ÷ 1 = ${(mean(runs[2].rps) / mean(runs[1].rps)).toFixed(2)}× calls/s ` +
      `(${mean(runs[1].rps).toFixed(0)} → ${mean(runs[2].rps).toFixed(0)}), server CPU per call ` +
      `${mean(runs[1].cpuUs).toFixed(0)} → ${mean(runs[2].cpuUs).toFixed(0)} µs`,
  );
}
console.log(`\n${summary.join("\n")}`);
