/**
 * Cold start of a one-tool server: from spawning `bun` to the first answered `tools/call`, per library,
 * with Bun running the TypeScript source (each `bench/bundle/*.ts` entry as its library's docs write
 * it) and running its minified bundle (built by `bench/bundle.ts`). Each round spawns every row
 * `runs` times, interleaved, and takes the median; a cell is the ratio to mcp-lite's median in the same
 * round (min–max over the rounds), then the median time. The floor is `bun` starting the same child
 * script without importing any server. Used by `bench/run.ts`; runs alone too: `bun bench/coldstart.ts`.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { bundleSizes } from "./bundle.ts";
import { median } from "./harness.ts";

/** One row: what the child imports and which request it sends. */
interface ColdStartEntry {
  /** The row name. */
  name: string;
  /** The module the child imports (relative to the project root), or `--floor`. */
  entry: string;
  /** The path of the `tools/call` request. */
  path: string;
  /** Its `MCP-Protocol-Version` header, if any. */
  protocol?: string;
}

/** One row's result. */
export interface ColdStartRow {
  /** The row name. */
  name: string;
  /** The median time of each round, in milliseconds. */
  medians: number[];
  /** Each round's median as a ratio to mcp-lite's (source or bundle, as the row), in the same round. */
  ratios: number[];
  /** Why it failed. */
  error?: string;
}

const BUNDLES = join("node_modules", ".cache", "mcplite-bench");

const ENTRIES: ColdStartEntry[] = [
  { name: "floor (bun, no server)", entry: "--floor", path: "" },
  { name: "@mcplite/sdk, source (MCP-lite)", entry: "bench/bundle/ours.ts", path: "/mcp-lite/v1/calltools" },
  { name: "@mcplite/sdk, source (MCP 2025)", entry: "bench/bundle/ours.ts", path: "/mcp", protocol: "2025-06-18" },
  { name: "@mcplite/sdk/lite, source", entry: "bench/bundle/ours-lite.ts", path: "/mcp-lite/v1/calltools" },
  { name: "mcp-lite 0.10.0, source", entry: "bench/bundle/mcp-lite.ts", path: "/mcp", protocol: "2025-06-18" },
  { name: "@mcplite/sdk, bundle (MCP-lite)", entry: join(BUNDLES, "bundle-ours.js"), path: "/mcp-lite/v1/calltools" },
  { name: "@mcplite/sdk/lite, bundle", entry: join(BUNDLES, "bundle-ours-lite.js"), path: "/mcp-lite/v1/calltools" },
  { name: "mcp-lite 0.10.0, bundle", entry: join(BUNDLES, "bundle-mcp-lite.js"), path: "/mcp", protocol: "2025-06-18" },
];

/** Which row each row is compared with: the bundles with mcp-lite's bundle, the rest with its source. */
function baseOf(name: string): string {
  return name.includes("bundle") ? "mcp-lite 0.10.0, bundle" : "mcp-lite 0.10.0, source";
}

function once(root: string, bun: string, entry: ColdStartEntry): number {
  const started = performance.now();
  const args = ["bench/coldstart-child.ts", entry.entry.startsWith("--") ? entry.entry : resolve(root, entry.entry)];
  if (entry.path !== "") args.push(entry.path);
  if (entry.protocol !== undefined) args.push(entry.protocol);
  const child = spawnSync(bun, args, { cwd: root, encoding: "utf8", timeout: 30_000 });
  const elapsed = performance.now() - started;
  if (child.status !== 0 || !child.stdout.includes('"result"')) {
    throw new Error(`${entry.name}: ${(child.stderr || child.stdout).slice(0, 200)}`);
  }
  return elapsed;
}

/**
 * Measures every row: `rounds` rounds of `runs` interleaved spawns each.
 *
 * @param root The project root.
 * @param rounds The rounds.
 * @param runs The spawns per row and round.
 * @param extra Rows measured besides the usual ones (an earlier build, say).
 * @returns One row per entry.
 */
export function coldStarts(root: string, rounds = 3, runs = 10, extra: ColdStartEntry[] = []): ColdStartRow[] {
  const bun = join(root, "node_modules", ".bin", "bun");
  if (!ENTRIES.every((e) => e.entry.startsWith("--") || existsSync(join(root, e.entry)))) bundleSizes(root);
  const entries = [...ENTRIES, ...extra];
  const rows: ColdStartRow[] = entries.map((e) => ({ name: e.name, medians: [], ratios: [] }));
  for (let round = 0; round < rounds; round++) {
    const times: number[][] = entries.map(() => []);
    for (let run = 0; run < runs; run++) {
      entries.forEach((entry, i) => {
        if (rows[i].error !== undefined) return;
        try {
          times[i].push(once(root, bun, entry));
        } catch (error) {
          rows[i].error = String(error);
        }
      });
    }
    const medians = times.map((t) => (t.length === 0 ? NaN : median(t)));
    entries.forEach((entry, i) => {
      rows[i].medians.push(medians[i]);
      rows[i].ratios.push(medians[i] / medians[entries.findIndex((e) => e.name === baseOf(entry.name))]);
    });
  }
  return rows;
}

/**
 * The cold start of one built server as a multiple of another's (both answering `tools/call` on the
 * path given), spawned alternately `runs` times each, medians compared: the guard's row.
 *
 * @param root The project root.
 * @param ours Our bundle and the path its `tools/call` goes to.
 * @param theirs The peer's bundle, its path and `MCP-Protocol-Version`.
 * @param runs The spawns of each.
 * @returns The ratio of the medians.
 */
export function coldStartRatio(
  root: string,
  ours: { file: string; path: string },
  theirs: { file: string; path: string; protocol?: string },
  runs = 10,
): number {
  const bun = join(root, "node_modules", ".bin", "bun");
  const a: ColdStartEntry = { name: "ours", entry: ours.file, path: ours.path };
  const b: ColdStartEntry = { name: "theirs", entry: theirs.file, path: theirs.path, protocol: theirs.protocol };
  const times: [number[], number[]] = [[], []];
  for (let run = 0; run < runs; run++) {
    times[0].push(once(root, bun, a));
    times[1].push(once(root, bun, b));
  }
  return median(times[0]) / median(times[1]);
}

/**
 * Formats the rows as a Markdown table.
 *
 * @param rows The rows of {@link coldStarts}.
 * @returns The table.
 */
export function coldStartTable(rows: ColdStartRow[]): string {
  if (rows.length === 0) return "";
  let md = "\n#### Cold start: `bun` spawned to the first answered `tools/call` (in process, add(1, 2))\n\n";
  md += "| server | × mcp-lite (min–max of rounds) | median ms |\n|---|---|---|\n";
  for (const r of rows) {
    if (r.error !== undefined) {
      md += `| ${r.name} | ${r.error.slice(0, 80)} | – |\n`;
      continue;
    }
    const lo = Math.min(...r.ratios), hi = Math.max(...r.ratios);
    md += `| ${r.name} | ${lo.toFixed(2)}–${hi.toFixed(2)}× | ${median(r.medians).toFixed(0)} |\n`;
  }
  return md;
}

if (process.argv[1]?.endsWith("coldstart.ts")) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const i = process.argv.indexOf("--runs");
  // `--before <bundle.js>`: an earlier build of the one-tool server (`bench/bundle.ts` run in its checkout,
  // the file copied aside), measured in the same rounds, so that before and after are read alongside.
  const b = process.argv.indexOf("--before");
  const before: ColdStartEntry[] = b === -1
    ? []
    : [{ name: "before, bundle (MCP-lite)", entry: resolve(process.argv[b + 1]), path: "/mcp-lite/v1/calltools" }];
  console.log(coldStartTable(coldStarts(root, 3, i === -1 ? 10 : Number(process.argv[i + 1]), before)));
}
