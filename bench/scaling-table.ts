/**
 * The scaling scenario's rows and tables (`bench/scaling.bench.ts` measures them; `bench/run.ts` writes the
 * tables into RESULTS.md, and `docs/scripts/charts.mjs` draws table 6b).
 *
 * @module
 */
/** The tool counts every server is measured at. */
export const SIZES = [10, 1_000, 10_000] as const;

/** What one child measured for one server at one size (CPU time in ns per request, except `readyMs`). */
export interface ScaleRow {
  /** The server's row name. */
  server: string;
  /** Its tool count. */
  tools: number;
  /** CPU milliseconds from the first tool's registration to the first answered `tools/list`. */
  readyMs: number;
  /** RSS grown by building the server and answering that list, in MB (after a GC where the runtime offers one). */
  rssMb: number;
  /** `tools/list` without a cursor. */
  firstPage: number;
  /** Every page, following `nextCursor`. */
  wholeList: number;
  /** How many pages the whole list took. */
  pages: number;
  /** `tools/call` of the last registered tool. */
  call: number;
}

function fmt(ns: number): string {
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(1)} µs`;
}

/**
 * The scenario's tables: per runtime, every server at every size; then `tools/call` at each size as a
 * multiple of the same server's at 10 tools (the flatness the guard checks for us), which the chart draws.
 *
 * @param byRuntime The rows each runtime measured.
 * @returns Markdown.
 */
export function scalingTable(byRuntime: Map<string, ScaleRow[]>): string {
  let md =
    "\n#### 6. Scaling: 10, 1,000 and 10,000 tools (a child process per server and size; CPU time per request)\n\n";
  md += "| runtime | server | tools | ready (CPU ms) | RSS (MB) | tools/list | whole list (pages) | tools/call |\n";
  md += "|---|---|---|---|---|---|---|---|\n";
  for (const [rt, rows] of byRuntime) {
    for (const r of rows) {
      md += `| ${rt} | ${r.server} | ${r.tools.toLocaleString("en")} | ${r.readyMs.toFixed(1)} | ${
        r.rssMb.toFixed(1)
      } | ${fmt(r.firstPage)} | ${fmt(r.wholeList)} (${r.pages}) | ${fmt(r.call)} |\n`;
    }
  }
  const runtimes = [...byRuntime.keys()];
  md += "\n#### 6b. Scaling: `tools/call` on the last tool, × the same server with 10 tools (lower is flatter)\n\n";
  md += `| server · tools | ${runtimes.map((r) => `${r}: ×10 tools`).join(" | ")} |\n`;
  md += `|---|${runtimes.map(() => "---").join("|")}|\n`;
  const servers = [...new Set([...byRuntime.values()].flat().map((r) => r.server))];
  for (const server of servers) {
    for (const tools of SIZES.slice(1)) {
      const cells = runtimes.map((rt) => {
        const rows = byRuntime.get(rt)!;
        const base = rows.find((r) => r.server === server && r.tools === 10);
        const row = rows.find((r) => r.server === server && r.tools === tools);
        return base && row ? `${(row.call / base.call).toFixed(2)}×` : "–";
      });
      md += `| ${server} · ${tools.toLocaleString("en")} | ${cells.join(" | ")} |\n`;
    }
  }
  return md;
}
