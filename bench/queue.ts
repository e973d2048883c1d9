/**
 * The queue bench (issue 62): what `createServer({ queue })` with `runWorker()` processes costs and gives
 * beside the in-process default. Starts a redis-server and a PostgreSQL on free 127.0.0.1 ports, runs
 * `bench/queue-run.ts` once per runtime (a fresh process; its workers are child processes on the same
 * runtime), stops them, and prints the tables in `bench/RESULTS.md`'s style.
 *
 *   bun bench/queue.ts [--runtimes bun,deno,node] [--backends redis,postgres] [--jobs 1000] [--latency 300]
 *                      [--rounds 3] [--workers 1,2,4] [--inflight 32] [--read-ms 20]
 *                      [--keep-completed-ms 0] [--resume 3]
 *
 * Not part of `npm run bench`: it needs `redis-server` and PostgreSQL's `initdb` and `postgres` (see
 * `tests/helpers/postgres-server.ts`). Node 20 cannot run TypeScript: as `bench/run.ts` does, the run and
 * the worker are bundled with `bun build --target=node --packages=external` into
 * `node_modules/.cache/mcplite-bench/` (the packages stay the installed ones).
 *
 * PostgreSQL's `max_connections` is raised to 400 (`ALTER SYSTEM`, then a restart): the web instance (a
 * store pool and three queues' pools) and seven workers (a store pool and a BullMQ pool each, plus a LISTEN
 * connection) may open up to about 190 connections (`pg`'s pools hold 10 at most), past the default 100.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { BIN, CACHE, exec, flag, ROOT } from "./exec.ts";
import { median } from "./harness.ts";
import type { QueueRunResult } from "./queue-run.ts";
import { raiseMaxConnections } from "./queue-processes.ts";
import { POSTGRES_MISSING, type PostgresServer, startPostgres } from "../tests/helpers/postgres-server.ts";
import { REDIS_MISSING, type RedisServer, startRedis } from "../tests/helpers/redis-server.ts";

const RUNTIMES = flag("runtimes", "bun,deno,node").split(",");
const BACKENDS = flag("backends", "redis,postgres").split(",");
const PASSED = ["jobs", "latency", "rounds", "workers", "inflight", "poll-ms", "read-ms", "keep-completed-ms", "resume"]
  .flatMap((
    name,
  ) => process.argv.includes(`--${name}`) ? [`--${name}`, flag(name, "")] : []);

/** The command that runs the run file under a runtime (Node: its bundle, with the worker's beside it). */
function commandFor(runtime: string): [string, string[]] {
  const file = join("bench", "queue-run.ts");
  if (runtime === "bun") return [join(BIN, "bun"), [file]];
  if (runtime === "deno") return [join(BIN, "deno"), ["run", "-A", "--unstable-no-legacy-abort", file]];
  mkdirSync(CACHE, { recursive: true });
  for (const name of ["queue-run", "queue-worker"]) {
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
  return ["node", [join(CACHE, "queue-run.mjs")]];
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

const fmt = (values: number[], digits = 0) => {
  const m = median(values).toFixed(digits);
  return values.length === 1
    ? m
    : `${m} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
};

const started = Date.now();
let redis: RedisServer | undefined;
let postgres: PostgresServer | undefined;
const results: QueueRunResult[] = [];
const failures: string[] = [];
const versions: string[] = [];
try {
  const urls: string[] = [];
  if (BACKENDS.includes("redis")) {
    if (REDIS_MISSING) failures.push(`redis: ${REDIS_MISSING}`);
    else urls.push("--redis", (redis = await startRedis()).url);
  }
  if (BACKENDS.includes("postgres")) {
    if (POSTGRES_MISSING) failures.push(`postgres: ${POSTGRES_MISSING}`);
    else {
      postgres = await startPostgres();
      await raiseMaxConnections(postgres);
      urls.push("--postgres", postgres.url);
    }
  }
  const backends = BACKENDS.filter((b) => (b === "redis" ? redis : postgres) !== undefined).join(",");
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
    const { code, out, err } = await exec(
      cmd,
      [...args, "--json", "--backends", backends, ...urls, ...PASSED],
      1_800_000,
      { echo: true },
    );
    for (const line of out.split("\n").filter((l) => l.startsWith("BENCH_QUEUE "))) {
      const result = JSON.parse(line.slice("BENCH_QUEUE ".length)) as QueueRunResult & { error?: string };
      if (result.error !== undefined) failures.push(`${runtime} ${result.backend}: ${result.error}`);
      else {
        results.push(result);
        const v = `${result.runtime} ${result.version}`;
        if (!versions.includes(v)) versions.push(v);
      }
    }
    if (code !== 0) failures.push(`${runtime}: exit ${code}: ${err.slice(-800)}`);
    console.error(`  ${runtime.padEnd(4)} done in ${((Date.now() - began) / 60000).toFixed(1)} min`);
  }
} finally {
  await redis?.stop();
  await postgres?.remove();
}

const runtimes = [...new Set(results.map((r) => r.runtime))];
const first = results[0];
let md = `Measured ${new Date().toISOString().slice(0, 10)} in one run of \`${
  ["bun bench/queue.ts", ...process.argv.slice(2)].join(" ")
}\` (${((Date.now() - started) / 60000).toFixed(1)} min).\nMachine: ${machine(versions)}.\n`;
if (first) {
  md +=
    `\n#### Throughput: ${first.jobs} jobs, ${first.inflight} calls at once, first call to last result in the store (read in order, ${
      flag("read-ms", "20")
    } ms apart while not ended); ` +
    `median of ${first.rounds} rounds (min–max) · × the in-process default · CPU ms per job (web + workers + database)\n\n`;
  md += `| backend | deferred work | mode | ${
    runtimes.map((r) => `${r}: jobs/s · × in process · CPU ms/job`).join(" | ")
  } |\n`;
  md += `|---|---|---|${runtimes.map(() => "---").join("|")}|\n`;
  for (const backend of ["redis", "postgres"].filter((b) => results.some((r) => r.backend === b))) {
    for (const tool of ["io10", "io0"]) {
      const targets = [...new Set(results.flatMap((r) => r.throughput.map((t) => t.target)))];
      for (const target of targets) {
        const cells = runtimes.map((runtime) => {
          const run = results.find((r) => r.runtime === runtime && r.backend === backend);
          const row = run?.throughput.find((t) => t.target === target && t.tool === tool);
          const base = run?.throughput.find((t) => t.tool === tool && t.target.startsWith("in process"));
          if (row === undefined || base === undefined) return "–";
          const ratios = row.jps.map((j, i) => j / base.jps[i]);
          const cpu = median(row.cpu.map((c) => c.web + c.workers + c.db));
          const parts = median(row.cpu.map((c) => c.web)).toFixed(2) + " + " +
            median(row.cpu.map((c) => c.workers)).toFixed(2) + " + " + median(row.cpu.map((c) => c.db)).toFixed(2);
          const refused = row.refused ? ` · ${row.refused} calls refused as too busy, sent again` : "";
          const reads = row.reads?.length ? ` · ${median(row.reads).toFixed(2)} reads/job` : "";
          return `${fmt(row.jps)} · ${target === base.target ? "1×" : `${median(ratios).toFixed(2)}×`} · ` +
            `${cpu.toFixed(2)} (${parts})${reads}${refused}`;
        });
        md += `| ${backend === "redis" ? "Redis" : "PostgreSQL"} | ${
          tool === "io10" ? "10 ms I/O" : "none"
        } | ${target} | ${cells.join(" | ")} |\n`;
      }
    }
  }
  const idle = Math.max(...results.flatMap((r) => r.throughput.map((t) => median(t.cpu.map((c) => c.idle)))));
  md += `\nThe other modes' workers, idle meanwhile, used at most ${
    idle.toFixed(3)
  } CPU ms per job of a cell (not counted).\n`;
  md += `\n#### Latency: ${first.latencyJobs} jobs (deferred work: none) one at a time, modes interleaved: ` +
    `the call to its promise answer, then from that answer to the result in the store (polled back to back); ` +
    `BullMQ's own hand-over (\`add\` to the handler's start, BullMQ alone in the run's process) interleaved, and ` +
    `each queued row's first result at p50 over it (issue 85's bar: at most 1 ms)\n\n`;
  md += `| backend | mode | ${
    runtimes.map((r) =>
      `${r}: call p50 / p99 ms · first result p50 / p99 ms · first result added at p50 / p99 · over BullMQ's hand-over at p50`
    ).join(" | ")
  } |\n`;
  md += `|---|---|${runtimes.map(() => "---").join("|")}|\n`;
  for (const backend of ["redis", "postgres"].filter((b) => results.some((r) => r.backend === b))) {
    const targets = [...new Set(results.flatMap((r) => r.latency.map((t) => t.target)))];
    for (const target of targets) {
      const cells = runtimes.map((runtime) => {
        const run = results.find((r) => r.runtime === runtime && r.backend === backend);
        const row = run?.latency.find((t) => t.target === target);
        const base = run?.latency.find((t) => t.target.startsWith("in process"));
        if (row === undefined || base === undefined) return "–";
        const added = row === base
          ? "—"
          : `${(row.first.p50 - base.first.p50).toFixed(2)} / ${(row.first.p99 - base.first.p99).toFixed(2)}`;
        const over = row === base || run?.handOver === undefined
          ? "—"
          : `${(row.first.p50 - run.handOver.p50).toFixed(2)}`;
        return `${row.call.p50.toFixed(2)} / ${row.call.p99.toFixed(2)} · ${row.first.p50.toFixed(2)} / ${
          row.first.p99.toFixed(2)
        } · ${added} · ${over}`;
      });
      md += `| ${backend === "redis" ? "Redis" : "PostgreSQL"} | ${target} | ${cells.join(" | ")} |\n`;
    }
    const handOvers = runtimes.map((runtime) => {
      const h = results.find((r) => r.runtime === runtime && r.backend === backend)?.handOver;
      return h === undefined ? "–" : `— · ${h.p50.toFixed(2)} / ${h.p99.toFixed(2)} · — · —`;
    });
    md += `| ${backend === "redis" ? "Redis" : "PostgreSQL"} | BullMQ's hand-over alone | ${handOvers.join(" | ")} |\n`;
  }
  if (results.some((r) => r.resume !== undefined)) {
    md +=
      `\n#### Resume: a job of 999 steps and a sleep of 100 ms, one at a time, on a server and worker in the run's ` +
      `process: the sleep hands it back to the queue, the next delivery resumes it from the journal; median per job\n\n`;
    md += `| backend | ${
      runtimes.map((r) => `${r}: journal loads · appends · ms call to result · CPU ms (process + database)`).join(" | ")
    } |\n`;
    md += `|---|${runtimes.map(() => "---").join("|")}|\n`;
    for (const backend of ["redis", "postgres"].filter((b) => results.some((r) => r.backend === b))) {
      const cells = runtimes.map((runtime) => {
        const r = results.find((x) => x.runtime === runtime && x.backend === backend)?.resume;
        return r === undefined
          ? "–"
          : `${r.loads} · ${r.appends} · ${r.ms.toFixed(0)} · ${(r.cpu.web + r.cpu.db).toFixed(0)} (${
            r.cpu.web.toFixed(0)
          } + ${r.cpu.db.toFixed(0)})`;
      });
      md += `| ${backend === "redis" ? "Redis" : "PostgreSQL"} | ${cells.join(" | ")} |\n`;
    }
  }
}
console.error(`BENCH_QUEUE_ALL ${JSON.stringify(results)}`); // for a script that takes ratios within a run
if (failures.length) md += `\nNot measured:\n${failures.map((f) => `- ${f}`).join("\n")}\n`;
console.log(md);
process.exit(failures.length ? 1 : 0);
