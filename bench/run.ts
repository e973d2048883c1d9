/**
 * The benchmark driver: runs every scenario file under Bun, Deno and Node 20, round after round, each
 * run in a fresh process; then the loopback runs, the bundle sizes and the cold starts; prints the tables and, with
 * `--write`, puts them into `bench/RESULTS.md` (between the `results` markers, keeping the prose).
 *
 *   bun bench/run.ts [--rounds 3] [--runtimes bun,deno,node] [--scenarios call,list,sse,codec,stdio]
 *                    [--loopback-seconds 5] [--no-loopback] [--no-grpc] [--no-scaling] [--no-bundle] [--no-coldstart]
 *                    [--cpu-ms 1000] [--write]
 *
 * The loopback runs serve on Bun and Deno (HTTP) and on Bun and Node (gRPC over h2c). The scaling scenario
 * (`bench/scaling.bench.ts`, 10 to 10,000 tools) runs once per runtime: it spawns a process per server and size.
 *
 * Node 20 cannot run TypeScript and no loader is installed, so the driver bundles each scenario with
 * `bun build --target=node --packages=external` into `node_modules/.cache/mcplite-bench/` and runs the
 * JavaScript; the dependencies stay the installed packages. Every child process has a time limit.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { BIN, CACHE, exec, flag, ROOT } from "./exec.ts";
import { median, type ScenarioResult } from "./harness.ts";
import { type BundleRow, bundleSizes, packageCounts } from "./bundle.ts";
import { coldStarts, coldStartTable } from "./coldstart.ts";
import { GRPC_IMPLS, type GrpcResult, type LoopbackResult, runGrpcLoopback, runLoopback } from "./loopback.ts";
import { type ScaleRow, scalingTable } from "./scaling-table.ts";

const GRPC_ROW_NAMES: Record<(typeof GRPC_IMPLS)[number], string> = {
  floor: "floor (bare node:http2 + protobuf-es)",
  ours: "ours · serveGrpc()",
  "ours-connect": "ours · serveGrpc(), every call through Connect's Node adapter",
};

const ROUNDS = Number(flag("rounds", "3"));
const RUNTIMES = flag("runtimes", "bun,deno,node").split(",");
const CPU_MS = flag("cpu-ms", "1000");
const LOOPBACK_SECONDS = Number(flag("loopback-seconds", "5"));
const SCENARIOS = flag("scenarios", "call,list,sse,codec,stdio").split(",").filter((s) =>
  existsSync(join(ROOT, "bench", `${s}.bench.ts`))
);

/** The command that runs a scenario file under a runtime. */
function commandFor(runtime: string, scenario: string): [string, string[]] {
  const file = join("bench", `${scenario}.bench.ts`);
  if (runtime === "bun") return [join(BIN, "bun"), [file]];
  if (runtime === "deno") return [join(BIN, "deno"), ["run", "-A", file]];
  mkdirSync(CACHE, { recursive: true });
  const out = join(CACHE, `${scenario}.bench.mjs`);
  const built = spawnSync(
    join(BIN, "bun"),
    ["build", file, "--target=node", "--packages=external", `--outfile=${out}`],
    {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  if (built.status !== 0) throw new Error(`bun build for node failed: ${built.stderr}`);
  return ["node", [out]];
}

/** Per scenario, runtime and case: the ratio to the floor in each round, and the times. */
type Collected = Map<
  string,
  Map<string, Map<string, { ratios: number[]; avg: number[]; bytes: number; note?: string }>>
>;

async function runScenarios(): Promise<{ collected: Collected; versions: Map<string, string> }> {
  const collected: Collected = new Map();
  const versions = new Map<string, string>();
  const commands = new Map<string, [string, string[]]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const scenario of SCENARIOS) {
      for (const runtime of RUNTIMES) {
        // The stdio scenario's servers are TypeScript children, which Node 20 cannot run.
        if (scenario === "stdio" && runtime === "node") continue;
        const key = `${runtime}:${scenario}`;
        if (!commands.has(key)) {
          try {
            commands.set(key, commandFor(runtime, scenario));
          } catch (error) {
            // The tree may be mid-edit: report, and try again next round.
            console.error(`! ${runtime} ${scenario} round ${round}: ${String(error).slice(0, 600)}`);
            continue;
          }
        }
        const [cmd, args] = commands.get(key)!;
        const { code, out, err } = await exec(
          cmd,
          [...args, "--json", "--round", String(round), "--cpu-ms", CPU_MS],
          300_000,
        );
        const line = out.split("\n").find((l) => l.startsWith("BENCH_RESULT "));
        if (code !== 0 || line === undefined) {
          console.error(`! ${runtime} ${scenario} round ${round} failed (exit ${code}):\n${err.slice(-1500)}`);
          continue;
        }
        if (err.trim()) console.error(err.trim());
        const result = JSON.parse(line.slice("BENCH_RESULT ".length)) as ScenarioResult;
        versions.set(runtime, result.version);
        const byRuntime = collected.get(scenario) ?? collected.set(scenario, new Map()).get(scenario)!;
        const byCase = byRuntime.get(runtime) ?? byRuntime.set(runtime, new Map()).get(runtime)!;
        for (const [name, r] of Object.entries(result.cases)) {
          const entry = byCase.get(name) ?? byCase.set(name, { ratios: [], avg: [], bytes: 0 }).get(name)!;
          if (r.skipped !== undefined) {
            entry.note = r.skipped;
            continue;
          }
          const floor = result.cases[r.floor];
          entry.ratios.push(r.avg / floor.avg);
          entry.avg.push(r.avg);
          entry.bytes = r.bytes;
        }
        console.error(`  ${runtime.padEnd(4)} ${scenario.padEnd(5)} round ${round + 1}/${ROUNDS} done`);
      }
    }
  }
  return { collected, versions };
}

function fmtTime(ns: number): string {
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`;
}

/** `median (min–max)` of some ratios. */
function spread(values: number[], digits = 2, suffix = "×"): string {
  if (values.length === 0) return "–";
  const m = median(values).toFixed(digits);
  if (values.length === 1) return `${m}${suffix}`;
  return `${m}${suffix} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
}

/** The tables of the scenarios `keep` selects, in the order they ran. */
function scenarioTables(collected: Collected, keep: (scenario: string) => boolean): string {
  let md = "";
  for (const [scenario, byRuntime] of collected) {
    if (!keep(scenario)) continue;
    const runtimes = [...byRuntime.keys()];
    const cases = [...new Set(runtimes.flatMap((r) => [...byRuntime.get(r)!.keys()]))];
    const sse = scenario.startsWith("SSE") || scenario === "sse";
    md += `\n#### ${TITLES[scenario] ?? scenario}\n\n`;
    md += `| case | ${runtimes.map((r) => `${r}: ×floor (min–max) · time`).join(" | ")} |\n`;
    md += `|---|${runtimes.map(() => "---").join("|")}|\n`;
    for (const name of cases) {
      const cells = runtimes.map((r) => {
        const e = byRuntime.get(r)!.get(name);
        if (e === undefined) return "–";
        if (e.avg.length === 0) return e.note ?? "–";
        const time = fmtTime(median(e.avg));
        const mbps = sse ? ` · ${(e.bytes / median(e.avg) * 1e3).toFixed(0)} MB/s` : "";
        return name.startsWith("floor") ? `1× · ${time}${mbps}` : `${spread(e.ratios)} · ${time}${mbps}`;
      });
      md += `| ${name} | ${cells.join(" | ")} |\n`;
    }
  }
  return md;
}

const TITLES: Record<string, string> = {
  call: "1a. In process: `tools/call` add(1, 2)",
  list: "1b. In process: `tools/list`",
  sse: "1c. In process: a streaming tool over SSE (64 × 1 KiB)",
  codec: "2. Token codec",
  stdio: "5. Over stdio: `tools/call` add(1, 2) round trips to a child process, one at a time",
};

function loopbackTable(results: LoopbackResult[]): string {
  let md = "";
  for (const tool of ["autocannon", "wrk"] as const) {
    const mine = results.filter((r) => r.tool === tool);
    if (mine.length === 0) continue;
    const runtimes = [...new Set(mine.map((r) => r.runtime))];
    const impls = [...new Set(mine.map((r) => r.impl))];
    md += `\n#### 3. Loopback (${tool}): \`tools/call\` over 127.0.0.1, load from another process, 10 connections, ` +
      `${LOOPBACK_SECONDS} s per run after 1 s of warm-up\n\n`;
    md += `| server | ${
      runtimes.map((r) =>
        `${r}: % of floor req/s (min–max) · req/s · p50 / p99 ms · RSS MB · server CPU µs/req (floor's ÷ its, %)`
      )
        .join(" | ")
    } |\n`;
    md += `|---|${runtimes.map(() => "---").join("|")}|\n`;
    for (const impl of impls) {
      const cells = runtimes.map((runtime) => {
        const runs = mine.filter((r) => r.runtime === runtime && r.impl === impl);
        const ok = runs.filter((r) => r.error === undefined);
        if (ok.length === 0) return runs[0]?.error ?? "–";
        const ofFloor = (measure: (r: LoopbackResult) => number) =>
          ok.map((r) => {
            const floor = mine.find((f) => f.runtime === runtime && f.impl === r.floor && f.round === r.round);
            return floor && floor.error === undefined ? measure(r) / measure(floor) * 100 : NaN;
          }).filter((x) => !Number.isNaN(x));
        const pct = ofFloor((r) => r.rps);
        const cpuPct = ofFloor((r) => 1 / r.cpuUs);
        const rps = median(ok.map((r) => r.rps)).toFixed(0);
        const digits = tool === "wrk" ? 2 : 0;
        const lat = `${median(ok.map((r) => r.p50)).toFixed(digits)} / ${median(ok.map((r) => r.p99)).toFixed(digits)}`;
        const rss = median(ok.map((r) => r.rssMb)).toFixed(0);
        // Server CPU per request (from /proc): other work on the machine moves it less than req/s.
        const cpu = median(ok.map((r) => r.cpuUs)).toFixed(1);
        const isFloor = ok[0].floor === impl; // a floor row is its own reference
        return `${isFloor ? "100%" : spread(pct, 0, "%")} · ${rps} · ${lat} · ${rss} · ${cpu}${
          isFloor || cpuPct.length === 0 ? "" : ` (${spread(cpuPct, 0, "%")})`
        }`;
      });
      md += `| ${impl} | ${cells.join(" | ")} |\n`;
    }
  }
  return md;
}

function grpcTable(results: GrpcResult[]): string {
  if (results.length === 0) return "";
  const runtimes = [...new Set(results.map((r) => r.runtime))];
  const tools = [...new Set(results.map((r) => r.tool))];
  let md =
    `\n#### 4. gRPC over h2c: \`CallTool\` add(1, 2), 10 calls in flight on one connection from another process, ` +
    `${LOOPBACK_SECONDS} s per run after 1 s of warm-up; @grpc/grpc-js under Node (checks every answer), then ` +
    `h2load (nghttp2's native load generator, when installed) against the same server process\n\n`;
  md += `| server | load | ${
    runtimes.map((r) => `${r}: % of floor calls/s (min–max) · calls/s · p50 / p99 ms (h2load: mean) · RSS MB`).join(
      " | ",
    )
  } |\n`;
  md += `|---|---|${runtimes.map(() => "---").join("|")}|\n`;
  for (const tool of tools) {
    for (const impl of GRPC_IMPLS) {
      const cells = runtimes.map((runtime) => {
        const mine = results.filter((r) => r.runtime === runtime && r.impl === impl && r.tool === tool);
        const ok = mine.filter((r) => r.error === undefined);
        if (ok.length === 0) return mine[0]?.error ?? "–";
        const pct = ok.map((r) => {
          const floor = results.find((f) =>
            f.runtime === runtime && f.impl === "floor" && f.tool === tool && f.round === r.round
          );
          return floor && floor.error === undefined ? (r.rps / floor.rps) * 100 : NaN;
        }).filter((x) => !Number.isNaN(x));
        const lat = tool === "h2load"
          ? median(ok.map((r) => r.p50)).toFixed(2)
          : `${median(ok.map((r) => r.p50)).toFixed(2)} / ${median(ok.map((r) => r.p99)).toFixed(2)}`;
        return `${impl === "floor" ? "100%" : spread(pct, 0, "%")} · ${
          median(ok.map((r) => r.rps)).toFixed(0)
        } · ${lat} · ${median(ok.map((r) => r.rssMb)).toFixed(0)}`;
      });
      md += `| ${GRPC_ROW_NAMES[impl]} | ${tool} | ${cells.join(" | ")} |\n`;
    }
  }
  return md;
}

/** Runs the scaling scenario once on each runtime; the rows by runtime. */
async function runScaling(): Promise<Map<string, ScaleRow[]>> {
  const byRuntime = new Map<string, ScaleRow[]>();
  for (const runtime of RUNTIMES) {
    const [cmd, args] = commandFor(runtime, "scaling");
    const { code, out, err } = await exec(cmd, [...args, "--json"], 1_800_000);
    const line = out.split("\n").find((l) => l.startsWith("BENCH_SCALING "));
    if (err.trim()) console.error(err.trim());
    if (code !== 0 || line === undefined) {
      console.error(`! ${runtime} scaling failed (exit ${code})`);
      continue;
    }
    byRuntime.set(runtime, (JSON.parse(line.slice("BENCH_SCALING ".length)) as { rows: ScaleRow[] }).rows);
    console.error(`  ${runtime.padEnd(4)} scaling done`);
  }
  return byRuntime;
}

function bundleTable(rows: BundleRow[]): string {
  if (rows.length === 0) return "";
  let md =
    "\n#### Bundles of a one-tool HTTP server and a one-call client (`bun build --minify`), and installed packages\n\n";
  md += "| server | minified | gzip | packages installed with it |\n|---|---|---|---|\n";
  for (const r of rows) {
    md += `| ${r.name} | ${r.error ?? `${(r.minified / 1024).toFixed(1)} KB`} | ${
      r.error ? "–" : `${(r.gzip / 1024).toFixed(1)} KB`
    } | ${r.packages} |\n`;
  }
  return md;
}

function machine(versions: Map<string, string>): string {
  const cpu = readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/)?.[1] ?? "unknown";
  const cores = readFileSync("/proc/cpuinfo", "utf8").split("\n").filter((l) => l.startsWith("processor")).length;
  const memGb = Number(readFileSync("/proc/meminfo", "utf8").match(/MemTotal:\s*(\d+)/)?.[1] ?? 0) / 1024 / 1024;
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  const v = [...versions].map(([r, ver]) => `${r} ${ver}`).join(", ");
  return `${cpu}, ${cores} cores, ${
    memGb.toFixed(0)
  } GB, Linux (shared with other work; load average at the end ${load}); ${v}`;
}

const started = Date.now();
console.error(`rounds ${ROUNDS}, runtimes ${RUNTIMES.join(",")}, scenarios ${SCENARIOS.join(",")}`);
const { collected, versions } = await runScenarios();
const loopback = process.argv.includes("--no-loopback") ? [] : await runLoopback({
  rounds: ROUNDS,
  seconds: LOOPBACK_SECONDS,
  root: ROOT,
  runtimes: RUNTIMES.filter((r) => r !== "node"),
});
const grpcRuntimes = RUNTIMES.filter((r) => r === "bun" || r === "node");
const grpc = process.argv.includes("--no-loopback") || process.argv.includes("--no-grpc") || grpcRuntimes.length === 0
  ? []
  : await runGrpcLoopback({ rounds: ROUNDS, seconds: LOOPBACK_SECONDS, root: ROOT, runtimes: grpcRuntimes });
const scaling = process.argv.includes("--no-scaling") ? new Map<string, ScaleRow[]>() : await runScaling();
const bundles = process.argv.includes("--no-bundle") ? [] : bundleSizes(ROOT);
const coldstart = process.argv.includes("--no-coldstart") ? [] : coldStarts(ROOT, ROUNDS);
const counts = packageCounts(ROOT);

const tables =
  `Measured ${new Date().toISOString().slice(0, 10)} in one run of \`${
    ["bun bench/run.ts", ...process.argv.slice(2)].join(" ")
  }\` (${((Date.now() - started) / 60000).toFixed(1)} min).\n` +
  `Machine: ${machine(versions)}.\n` +
  `Each cell: the median over ${ROUNDS} rounds (each round a fresh process per runtime) of the ratio to the floor measured in the same process, with the smallest and largest round in brackets, then the median time per request.\n` +
  scenarioTables(collected, (s) => s !== "stdio") + loopbackTable(loopback) + grpcTable(grpc) +
  scenarioTables(collected, (s) => s === "stdio") + (scaling.size ? scalingTable(scaling) : "") +
  bundleTable(bundles) + coldStartTable(coldstart) +
  `\nInstalled packages: ${counts}\n`;
console.log(tables);

if (process.argv.includes("--write")) {
  const file = join(ROOT, "bench", "RESULTS.md");
  const text = readFileSync(file, "utf8");
  const start = "<!-- results:start -->", end = "<!-- results:end -->";
  const a = text.indexOf(start), b = text.indexOf(end);
  if (a === -1 || b === -1) throw new Error("bench/RESULTS.md lacks the results markers");
  writeFileSync(file, text.slice(0, a + start.length) + "\n" + tables + "\n" + text.slice(b));
  console.error("wrote bench/RESULTS.md");
  // The README's chart is committed (docs/headline.svg); the others are drawn when the docs are built.
  const charts = spawnSync("node", ["docs/scripts/charts.mjs", file, join(CACHE, "perf"), "--headline"], { cwd: ROOT });
  if (charts.status !== 0) console.error(`! charts: ${charts.stderr}`);
}
