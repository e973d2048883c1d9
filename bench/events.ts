/**
 * The events bench (issue 77): what `server.emit()` costs until the webhook's POST arrives, and how many
 * deliveries a second one instance makes, in process and through BullMQ with `runWorker()` processes. Starts a
 * redis-server on a free 127.0.0.1 port, runs `bench/events-run.ts` once per runtime (a fresh process; its workers
 * are child processes on the same runtime), stops it, and prints the tables in `bench/RESULTS.md`'s style.
 *
 *   bun bench/events.ts [--runtimes bun,deno,node] [--latency 300] [--emits 200] [--lanes 10] [--inflight 8]
 *                       [--rounds 3] [--workers 1,2] [--concurrency 8]
 *
 * Not part of `npm run bench`: it needs `redis-server`. Node 20 cannot run TypeScript: as `bench/queue.ts` does,
 * the run and the worker are bundled with `bun build --target=node --packages=external` into
 * `node_modules/.cache/mcplite-bench/` (the packages stay the installed ones).
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { BIN, CACHE, exec, flag, ROOT } from "./exec.ts";
import { median } from "./harness.ts";
import type { EventsRunResult } from "./events-run.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../tests/helpers/redis-server.ts";

const RUNTIMES = flag("runtimes", "bun,deno,node").split(",");
const PASSED = ["latency", "emits", "lanes", "inflight", "rounds", "workers", "concurrency"].flatMap((name) =>
  process.argv.includes(`--${name}`) ? [`--${name}`, flag(name, "")] : []
);

/** The command that runs the run file under a runtime (Node: its bundle, with the worker's beside it). */
function commandFor(runtime: string): [string, string[]] {
  const file = join("bench", "events-run.ts");
  if (runtime === "bun") return [join(BIN, "bun"), [file]];
  if (runtime === "deno") return [join(BIN, "deno"), ["run", "-A", "--unstable-no-legacy-abort", file]];
  mkdirSync(CACHE, { recursive: true });
  for (const name of ["events-run", "events-worker"]) {
    const built = spawnSync(
      join(BIN, "bun"),
      [
        "build",
        join("bench", `${name}.ts`),
        "--target=node",
        "--packages=external",
        `--outfile=${join(CACHE, `${name}.mjs`)}`,
      ],
      { cwd: ROOT, encoding: "utf8", timeout: 60_000 },
    );
    if (built.status !== 0) throw new Error(`bun build for node failed: ${built.stderr}`);
  }
  return ["node", [join(CACHE, "events-run.mjs")]];
}

function machine(versions: string[]): string {
  const cpuinfo = readFileSync("/proc/cpuinfo", "utf8");
  const cpu = cpuinfo.match(/model name\s*:\s*(.*)/)?.[1] ?? "unknown";
  const cores = cpuinfo.split("\n").filter((l) => l.startsWith("processor")).length;
  const memGb = Number(readFileSync("/proc/meminfo", "utf8").match(/MemTotal:\s*(\d+)/)?.[1] ?? 0) / 1024 / 1024;
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  return `${cpu}, ${cores} cores, ${
    memGb.toFixed(0)
  } GB, Linux (shared with other work; load average at the end ${load}); ${versions.join(", ")}`;
}

const fmt = (values: number[]) => {
  const m = median(values).toFixed(0);
  return values.length === 1 ? m : `${m} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
};

const started = Date.now();
let redis: RedisServer | undefined;
const results: EventsRunResult[] = [];
const failures: string[] = [];
const versions: string[] = [];
try {
  if (REDIS_MISSING) throw new Error(REDIS_MISSING);
  redis = await startRedis();
  for (const runtime of RUNTIMES) {
    const began = Date.now();
    let command: [string, string[]];
    try {
      command = commandFor(runtime);
    } catch (error) {
      failures.push(`${runtime}: ${String(error).slice(0, 600)}`);
      continue;
    }
    const [cmd, args] = command;
    const { code, out, err } = await exec(cmd, [...args, "--redis", redis.url, ...PASSED], 1_200_000, { echo: true });
    for (const line of out.split("\n").filter((l) => l.startsWith("BENCH_EVENTS "))) {
      const result = JSON.parse(line.slice("BENCH_EVENTS ".length)) as EventsRunResult;
      results.push(result);
      versions.push(`${result.runtime} ${result.version}`);
    }
    if (code !== 0) failures.push(`${runtime}: exit ${code}: ${err.slice(-800)}`);
    console.error(`  ${runtime.padEnd(4)} done in ${((Date.now() - began) / 60000).toFixed(1)} min`);
  }
} finally {
  await redis?.stop();
}

const runtimes = results.map((r) => r.runtime);
const first = results[0];
let md = `Measured ${new Date().toISOString().slice(0, 10)} in one run of \`${
  ["bun bench/events.ts", ...process.argv.slice(2)].join(" ")
}\` (${((Date.now() - started) / 60000).toFixed(1)} min).\nMachine: ${machine(versions)}.\n`;
if (first) {
  const targets = [...new Set(results.flatMap((r) => r.latency.map((t) => t.target)))];
  md += `\n#### Emit → delivered: ${first.latencyEmits} emits of an event with one subscription, one at a time, ` +
    `targets interleaved: \`server.emit()\` until it returns, and until the POST arrives at the receiver (ms)\n\n`;
  md += `| deliveries | ${runtimes.map((r) => `${r}: emit returns p50 / p99 · delivered p50 / p99`).join(" | ")} |\n`;
  md += `|---|${runtimes.map(() => "---").join("|")}|\n`;
  for (const target of targets) {
    const cells = results.map((run) => {
      const row = run.latency.find((t) => t.target === target);
      return row === undefined ? "–" : `${row.emit.p50.toFixed(2)} / ${row.emit.p99.toFixed(2)} · ` +
        `**${row.delivered.p50.toFixed(2)} / ${row.delivered.p99.toFixed(2)}**`;
    });
    md += `| ${target} | ${cells.join(" | ")} |\n`;
  }
  md += `\n#### Deliveries per second: ${first.emits} emits × ${first.lanes} subscriptions (every one matched), ` +
    `${first.inflight} emits at once, first emit to last arrival; median of ${first.rounds} rounds (min–max); ` +
    `workers: \`runWorker()\` at concurrency ${first.concurrency}; CPU ms per delivery: this process (emitter and ` +
    `receiver) + workers + redis-server\n\n`;
  md += `| deliveries | ${
    runtimes.map((r) => `${r}: deliveries/s · × in process (memory) · CPU ms/delivery`).join(" | ")
  } |\n`;
  md += `|---|${runtimes.map(() => "---").join("|")}|\n`;
  for (const target of targets) {
    const cells = results.map((run) => {
      const row = run.throughput.find((t) => t.target === target);
      const base = run.throughput[0];
      if (row === undefined) return "–";
      const ratio = row === base ? "1×" : `${median(row.dps.map((d, i) => d / base.dps[i])).toFixed(2)}×`;
      const cpu = (key: "here" | "workers" | "redis") => median(row.cpu.map((c) => c[key]));
      const total = cpu("here") + cpu("workers") + cpu("redis");
      const parts = `${cpu("here").toFixed(2)} + ${cpu("workers").toFixed(2)} + ${cpu("redis").toFixed(2)}`;
      return `${fmt(row.dps)} · ${ratio} · ${total.toFixed(2)} (${parts})` +
        (row.duplicates ? ` · ${row.duplicates} arrived twice` : "");
    });
    md += `| ${target} | ${cells.join(" | ")} |\n`;
  }
}
if (failures.length) md += `\nNot measured:\n${failures.map((f) => `- ${f}`).join("\n")}\n`;
console.log(md);
process.exit(failures.length ? 1 : 0);
