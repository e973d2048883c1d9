/**
 * The workload run: Redis (seeded) and the product API started once, then for each round every
 * (runtime, server) pair in turn — the order rotated each round, so no pair always runs first or last —
 * each server on `--workers` processes (`worker.ts`), driven by `load.ts` in its own process (the
 * pieces in `measure.ts`, which `bench/guard.ts`'s workload row uses too). Prints one row per pair and
 * the ratios ours ÷ official and ours ÷ floor, and with `floor-mcp` among the servers ours ÷ floor-mcp
 * (what our SDK costs over the protocol answered by hand) and floor-mcp ÷ floor (what the protocol's
 * 5⅓ requests per call cost on the runtime's HTTP server: the best any MCP server there could read against
 * the floor); only ratios within one run mean anything (the load, Redis and the API share the cores).
 *
 *   bun bench/workload/run.ts [--rounds 3] [--seconds 8] [--warmup 2] [--vus 50] [--workers 2]
 *     [--runtimes node,bun] [--servers ours,official,floor] [--before <checkout>]
 *
 * `--servers` takes any of `ours`, `official`, `floor` and `floor-mcp` (the protocol floor, `floor-mcp.ts`).
 *
 * `--before <checkout>` adds the server `before`: `ours.ts` of another checkout of this repository (a
 * worktree of an earlier commit, its `node_modules` linked), run in the same rounds, so that a change
 * is measured as before ÷ after in one run.
 *
 * Node is Node 22 from `bash .ci/node22.sh` (`NODE22` overrides it), Bun this process's `bun`.
 *
 * @module
 */
import process from "node:process";
import { parseArgs } from "node:util";
import { BUN, measure, node22, type Round, type Row, startBackends, summarize } from "./measure.ts";

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
const RUNTIMES = opts.runtimes.split(",");
const SERVERS = [...opts.servers.split(","), ...(opts.before === undefined ? [] : ["before"])];
/** The `--before` checkout's `worker.ts`, which runs its `ours`. */
const BEFORE_WORKER = opts.before === undefined
  ? undefined
  : `${opts.before.replace(/\/$/, "")}/bench/workload/worker.ts`;
const BINARIES: Record<string, string> = {
  ...RUNTIMES.includes("node") ? { node: node22()! } : {},
  bun: BUN,
};
const LOAD = {
  seconds: Number(opts.seconds),
  warmup: Number(opts.warmup),
  vus: Number(opts.vus),
  workers: Number(opts.workers),
};

const backends = await startBackends();
const pairs = RUNTIMES.flatMap((runtime) => SERVERS.map((server) => [runtime, server] as const));
const results = new Map<string, Round[]>();
try {
  for (let round = 0; round < Number(opts.rounds); round++) {
    const order = [...pairs.slice(round % pairs.length), ...pairs.slice(0, round % pairs.length)];
    for (const [runtime, server] of order) {
      const r = server === "before"
        ? await measure(BINARIES[runtime], "ours", backends.env, LOAD, BEFORE_WORKER)
        : await measure(BINARIES[runtime], server, backends.env, LOAD);
      results.set(`${runtime} ${server}`, [...results.get(`${runtime} ${server}`) ?? [], r]);
      console.error(
        `round ${round + 1} ${runtime} ${server}: ${r.callsPerSecond.toFixed(0)} calls/s, p50 ${
          r.p50.toFixed(1)
        } ms, ` +
          `p99 ${r.p99.toFixed(1)} ms, CPU ${(r.cpu / r.calls * 1000).toFixed(2)} ms/call ` +
          `(load generator ${(r.loadCpu / r.calls * 1000).toFixed(2)}), ` +
          `failed ${r.failed}/${r.requests} ${JSON.stringify(r.failedByKind)}, checks failed ${r.checksFailed}`,
      );
    }
  }
} finally {
  backends.stop();
}

const rows = new Map<string, Row>();
for (const [key, rounds] of results) rows.set(key, summarize(rounds));

const f = (x: number, digits = 0) =>
  x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
console.log(
  `\n${opts.rounds} rounds × ${opts.seconds} s (after ${opts.warmup} s of warm-up), ${opts.vus} virtual users, ` +
    `${opts.workers} workers per server\n`,
);
console.log(
  "| runtime | server | tool calls/s | tools/call p50 / p99 | CPU per call | load generator's CPU per call | peak RSS " +
    "| http_req_failed | checks failed |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
for (const [key, r] of rows) {
  const [runtime, server] = key.split(" ");
  console.log(
    `| ${runtime} | ${server} | ${f(r.callsPerSecond)} | ${f(r.p50, 1)} / ${f(r.p99, 1)} ms | ${
      f(r.cpuPerCall, 2)
    } ms | ${f(r.loadCpuPerCall, 2)} ms | ` +
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
  console.log(
    `| ${runtime} | ${x(ours.callsPerSecond, official?.callsPerSecond)} | ${
      x(ours.cpuPerCall, official?.cpuPerCall)
    } | ` +
      `${x(ours.p99, official?.p99)} | ${x(ours.callsPerSecond, floor?.callsPerSecond)} | ${
        x(ours.cpuPerCall, floor?.cpuPerCall)
      } |`,
  );
}
if (RUNTIMES.some((runtime) => rows.has(`${runtime} floor-mcp`))) {
  console.log(
    "\n| runtime | ours ÷ floor-mcp: calls/s | CPU per call | p99 | floor-mcp ÷ floor: calls/s | CPU per call | p99 |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const runtime of RUNTIMES) {
    const ours = rows.get(`${runtime} ours`),
      protocol = rows.get(`${runtime} floor-mcp`),
      floor = rows.get(`${runtime} floor`);
    if (!protocol) continue;
    const x = (a: number | undefined, b: number | undefined) =>
      a === undefined || b === undefined ? "–" : `${f(a / b, 2)}×`;
    console.log(
      `| ${runtime} | ${x(ours?.callsPerSecond, protocol.callsPerSecond)} | ${
        x(ours?.cpuPerCall, protocol.cpuPerCall)
      } | ${x(ours?.p99, protocol.p99)} | ${x(protocol.callsPerSecond, floor?.callsPerSecond)} | ${
        x(protocol.cpuPerCall, floor?.cpuPerCall)
      } | ${x(protocol.p99, floor?.p99)} |`,
    );
  }
}
for (const runtime of RUNTIMES) {
  const ours = rows.get(`${runtime} ours`), before = rows.get(`${runtime} before`);
  if (!ours || !before) continue;
  const x = (a: number, b: number) => `${f(a / b, 2)}×`;
  console.log(
    `\n${runtime}, ours ÷ before: calls/s ${x(ours.callsPerSecond, before.callsPerSecond)}, CPU per call ${
      x(ours.cpuPerCall, before.cpuPerCall)
    }, p99 ${x(ours.p99, before.p99)}`,
  );
}
process.exit(0);
