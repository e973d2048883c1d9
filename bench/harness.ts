/**
 * The in-process harness every scenario file uses: each case is checked once (a benchmark of an error
 * path would be meaningless), then timed with mitata's `measure`, in an order that rotates with the
 * round so that no server always runs first or last. Prints a table (ratio to the floor), or, with
 * `--json`, one `BENCH_RESULT {…}` line for `bench/run.ts`.
 *
 * Runs unchanged under Bun, Deno and Node (Node through the bundle `bench/run.ts` builds).
 *
 * @module
 */
import process from "node:process";
import { measure } from "mitata";
import type { Fetch } from "./servers/common.ts";
import type { RequestFactory } from "./requests.ts";
import { flag } from "./exec.ts";

/** One thing to time: a request to a server, or (`fn`) any async work. */
export type Case = FetchCase | FnCase;

/** A request to a server, timed from building the `Request` to reading the whole response body. */
export interface FetchCase {
  /** Its row name, e.g. `ours · MCP-lite`. */
  name: string;
  /** The server. */
  fetch: Fetch;
  /** The request it answers. */
  request: RequestFactory;
  /** A substring the response body must contain for the case to count as correct. */
  expect: string;
  /** The floor this case is compared with (default: the case named `floor`). */
  floor?: string;
  /** Runs once before timing; returns extra request headers (e.g. `If-None-Match`), or a reason to skip. */
  prepare?: (fetch: Fetch) => Promise<Record<string, string> | { skip: string }>;
  /** The status (or statuses) the checked response may have (default 200). */
  status?: number | number[];
}

/** Any async work; `fn` resolves with a text that must contain `expect`. */
export interface FnCase {
  /** Its row name. */
  name: string;
  /** The work. */
  fn: () => Promise<string>;
  /** A substring the first result must contain for the case to count as correct. */
  expect: string;
  /** The floor this case is compared with (default: the case named `floor`). */
  floor?: string;
}

/** What one case measured, in nanoseconds per request. */
export interface CaseResult {
  /** Mean time per request (GC included), the median over the slices. */
  avg: number;
  /** Median time per request, the median over the slices. */
  p50: number;
  /** 99th percentile, the median over the slices. */
  p99: number;
  /** Response body size, in bytes. */
  bytes: number;
  /** Why the case was not timed, if it was not. */
  skipped?: string;
  /** The floor this case is compared with. */
  floor: string;
}

/** One scenario run in one process. */
export interface ScenarioResult {
  /** The scenario name. */
  scenario: string;
  /** `bun`, `deno` or `node`. */
  runtime: string;
  /** The runtime's version. */
  version: string;
  /** Results by case name, in the declared order. */
  cases: Record<string, CaseResult>;
}

/** The current runtime and its version. */
export function runtime(): { name: string; version: string } {
  const g = globalThis as { Bun?: { version: string }; Deno?: { version: { deno: string } } };
  if (g.Bun) return { name: "bun", version: g.Bun.version };
  if (g.Deno) return { name: "deno", version: g.Deno.version.deno };
  return { name: "node", version: process.versions.node };
}

/** How many interleaved slices each case is timed in. */
const SLICES = 5;

/**
 * Calls per mitata sample of a fast case. mitata batches calls under 65 µs 4,096 to a sample and takes at least 12
 * samples, so a 20 µs case ran for a second per slice whatever `cpuMs` asked (the guard's Deno run: 50 s for a
 * budget of 10). 256 calls still make a sample of a millisecond or more, far above the timer's resolution.
 */
const BATCH = 256;

/**
 * Returns the median of some numbers.
 *
 * @param values The numbers.
 * @returns The median (the mean of the middle two for an even count).
 */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** One row timed in CPU time: its name, its server and the request it answers. */
export type CpuRow = readonly [name: string, fetch: Fetch, request: RequestFactory];

/** One unit of work timed in CPU time: its name, the work (resolving with the answer's text), and a text the answer contains. */
export type CpuWork = readonly [name: string, run: () => Promise<string>, expect: string];

/**
 * Times each row in CPU time (`process.cpuUsage()`): 40 rounds of one block of calls per row, rows
 * interleaved, the median block kept. On a loaded machine the time a process waits for a core does not
 * count, so ratios between rows stay readable where wall time is noise.
 *
 * @param rows The rows: requests to a server (each answer checked once for `expect`), or units of work.
 * @param expect A substring every request row's response body must contain.
 * @param block The calls per block (default 2,000).
 * @returns CPU µs per call, by row name.
 */
export async function cpuTimePerCall(
  rows: readonly (CpuRow | CpuWork)[],
  expect = "",
  block = 2_000,
): Promise<Map<string, number>> {
  const work: CpuWork[] = rows.map((row) =>
    typeof row[2] === "string"
      ? row as CpuWork
      : [row[0], async () => await (await (row as CpuRow)[1](((row as CpuRow)[2])())).text(), expect]
  );
  const samples = new Map<string, number[]>(work.map(([name]) => [name, []]));
  for (const [name, run, contains] of work) { // warm up, and check each answer once
    const text = await run();
    if (!text.includes(contains)) throw new Error(`${name} answered ${text}`);
    for (let i = 0; i < block; i++) await run();
  }
  for (let round = 0; round < 40; round++) {
    for (const [name, run] of work) {
      const start = process.cpuUsage();
      for (let i = 0; i < block; i++) await run();
      const used = process.cpuUsage(start);
      samples.get(name)!.push((used.user + used.system) / block);
    }
  }
  return new Map([...samples].map(([name, values]) => [name, median(values)]));
}

/** Whether `--json` was given. */
export const JSON_OUTPUT: boolean = process.argv.includes("--json");

/**
 * Checks and times every case, then prints the results.
 *
 * @param scenario The scenario name.
 * @param cases The cases; the one named `floor` (or each case's `floor`) is the reference.
 * @param options `cpuMs`: the CPU time each case is timed for in all, over its slices (`--cpu-ms`).
 * @returns The results.
 */
export async function runScenario(
  scenario: string,
  cases: Case[],
  options: { cpuMs?: number } = {},
): Promise<ScenarioResult> {
  const round = Number(flag("round") ?? 0);
  const cpuMs = Number(flag("cpu-ms") ?? options.cpuMs ?? 1000);
  const prepared = new Map<string, { skip?: string; bytes: number }>();
  const timed = new Map<string, () => Promise<unknown>>();
  for (const c of cases) {
    let failure: string | undefined;
    let bytes = 0;
    try {
      if ("fn" in c) {
        const text = await c.fn();
        bytes = new TextEncoder().encode(text).byteLength;
        if (!text.includes(c.expect)) failure = `gave ${text.slice(0, 160)}`;
        timed.set(c.name, c.fn);
      } else {
        let headers: Record<string, string> | undefined;
        if (c.prepare) {
          const extra = await c.prepare(c.fetch);
          if ("skip" in extra) {
            prepared.set(c.name, { skip: String(extra.skip), bytes: 0 });
            continue;
          }
          headers = extra as Record<string, string>;
        }
        const response = await c.fetch(c.request({ headers }));
        const body = await response.text();
        bytes = new TextEncoder().encode(body).byteLength;
        const status = [c.status ?? 200].flat();
        if (!status.includes(response.status) || !body.includes(c.expect)) {
          failure = `answered ${response.status} ${body.slice(0, 160)}`;
        }
        const { fetch, request } = c;
        const init = headers ? { headers } : undefined;
        timed.set(c.name, async () => {
          const response = await fetch(request(init));
          await response.arrayBuffer();
        });
      }
    } catch (error) {
      failure = `threw ${String(error).slice(0, 160)}`;
    }
    // A case that answers wrongly is reported, never timed: a benchmark of an error path means nothing.
    if (failure !== undefined) console.error(`${scenario} / ${c.name}: ${failure}`);
    prepared.set(c.name, failure === undefined ? { bytes } : { skip: `FAILED: ${failure}`, bytes: 0 });
  }
  // Each case is timed in short slices, interleaved round-robin (starting at a case that rotates with
  // the round), and summarised by the median slice: a burst of load from another process on this
  // shared machine then spoils one slice of every case rather than all of one case.
  const order = cases.map((_, i) => cases[(i + round) % cases.length]);
  const slices = new Map<string, { avg: number[]; p50: number[]; p99: number[] }>();
  for (let slice = 0; slice < SLICES; slice++) {
    for (const c of order) {
      if (prepared.get(c.name)!.skip !== undefined) continue;
      const stats = await measure(timed.get(c.name)!, {
        min_cpu_time: (cpuMs / SLICES) * 1e6,
        batch_samples: BATCH,
      });
      let acc = slices.get(c.name);
      if (acc === undefined) slices.set(c.name, acc = { avg: [], p50: [], p99: [] });
      acc.avg.push(stats.avg);
      acc.p50.push(stats.p50);
      acc.p99.push(stats.p99);
    }
  }
  const results: Record<string, CaseResult> = {};
  for (const c of cases) {
    const p = prepared.get(c.name)!;
    const floor = c.floor ?? "floor";
    const acc = slices.get(c.name);
    results[c.name] = p.skip !== undefined || acc === undefined
      ? { avg: NaN, p50: NaN, p99: NaN, bytes: 0, skipped: p.skip, floor }
      : { avg: median(acc.avg), p50: median(acc.p50), p99: median(acc.p99), bytes: p.bytes, floor };
  }
  const { name, version } = runtime();
  const result: ScenarioResult = { scenario, runtime: name, version, cases: results };
  if (JSON_OUTPUT) console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
  else printTable(result);
  return result;
}

function printTable(result: ScenarioResult): void {
  console.log(`\n${result.scenario} — ${result.runtime} ${result.version}`);
  const width = Math.max(...Object.keys(result.cases).map((n) => n.length));
  for (const [name, r] of Object.entries(result.cases)) {
    if (r.skipped !== undefined) {
      console.log(`  ${name.padEnd(width)}  skipped: ${r.skipped}`);
      continue;
    }
    const floor = result.cases[r.floor];
    const ratio = floor && !floor.skipped ? (r.avg / floor.avg).toFixed(2) + "×" : "";
    const mbps = r.bytes > 4096 ? `  ${(r.bytes / r.avg * 1e3).toFixed(0).padStart(6)} MB/s` : "";
    console.log(
      `  ${name.padEnd(width)}  ${fmt(r.avg).padStart(10)} avg  ${fmt(r.p50).padStart(10)} p50  ${
        fmt(r.p99).padStart(10)
      } p99  ${ratio.padStart(8)} floor${mbps}`,
    );
  }
}

function fmt(ns: number): string {
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`;
}
