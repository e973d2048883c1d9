// Writes the Performance page's charts: SVG bar charts drawn from the tables `npm run bench -- --write` (bench/run.ts)
// puts into bench/RESULTS.md. Run by `npm run docs:build` and `docs:dev`; the SVGs land in docs/public/perf/
// (gitignored), so a new bench run changes the charts on the next build.
//
//   node docs/scripts/charts.mjs [bench/RESULTS.md] [out dir]
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * The charts: which `####` table of RESULTS.md, the unit of its cells, and where a table is not "a row name, then a
 * column per runtime": `keys` (leading columns that name a row), `columns` (the header cells to draw, default all
 * after the keys) and `reference` (the dashed line: the floor, 1× or 100%; `null` for none).
 */
export const CHARTS = [
  {
    file: "call.svg",
    heading: "#### 1a.",
    title: "In process: tools/call add(1, 2), × the floor (lower is better)",
    unit: "×",
  },
  { file: "list.svg", heading: "#### 1b.", title: "In process: tools/list, × the floor (lower is better)", unit: "×" },
  {
    file: "loopback.svg",
    // wrk where it ran: autocannon reconnects slowly after Deno 2.9.5's `Connection: close` (bench/RESULTS.md).
    heading: ["#### 3. Loopback (wrk)", "#### 3. Loopback (autocannon)"],
    title: "Over loopback: % of the floor's requests per second (higher is better)",
    unit: "%",
  },
  {
    file: "grpc.svg",
    heading: "#### 4. gRPC over h2c",
    title: "gRPC over h2c: % of a bare node:http2 handler's calls per second (higher is better)",
    unit: "%",
    keys: 2,
  },
  {
    file: "scaling.svg",
    heading: "#### 6b. Scaling",
    title: "tools/call on the last tool, × the same server with 10 tools (lower is flatter)",
    unit: "×",
  },
  {
    file: "bundles.svg",
    heading: "#### Bundles",
    title: "One-tool server and one-call client bundles, KB gzip (lower is better)",
    unit: " KB",
    columns: ["gzip"],
    reference: null,
  },
  {
    file: "coldstart.svg",
    heading: "#### Cold start",
    title: "Cold start: ms from spawning bun to the first answered tools/call (lower is better)",
    unit: "",
    columns: ["median ms"],
    reference: null,
  },
];

/** The chart the README shows, committed beside it (the others are drawn at build time). */
export const HEADLINE = { chart: "scaling.svg", file: join(ROOT, "docs", "headline.svg") };

/**
 * The rows of the first table under the heading that starts with `heading` (or, given several, with the first of
 * them that RESULTS.md has): `{ header: string[], rows: string[][] }`.
 */
export function table(markdown, heading) {
  const lines = markdown.split("\n");
  const found = [heading].flat().find((h) => lines.some((line) => line.startsWith(h))) ?? heading;
  const at = lines.findIndex((line) => line.startsWith(found));
  if (at === -1) throw new Error(`bench/RESULTS.md has no table under "${heading}"`);
  const start = lines.findIndex((line, i) => i > at && line.startsWith("|"));
  const cells = (line) => line.split("|").slice(1, -1).map((cell) => cell.trim());
  const body = [];
  for (let i = start + 2; i < lines.length && lines[i].startsWith("|"); i++) body.push(cells(lines[i]));
  return { header: cells(lines[start]), rows: body };
}

/** The leading figure of a cell (`1.79× (1.50–1.99) · 11.46 µs` → 1.79), or undefined when it has none. */
export function figure(cell, unit) {
  const match = new RegExp(`^([0-9.]+)${unit}(?![0-9.–])`).exec(cell);
  return match ? Number(match[1]) : undefined;
}

const escape = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const COLOURS = ["#3451b2", "#d97706", "#059669"];

/** One grouped horizontal bar chart: a group per row, a bar per runtime column. */
export function svg({ title, unit, keys = 1, columns, reference = unit === "%" ? 100 : 1 }, { header, rows }) {
  const picked = header.map((_h, i) => i).filter((i) => i >= keys && (!columns || columns.includes(header[i])));
  const runtimes = picked.map((i) => header[i].split(":")[0]);
  const data = rows
    .filter(([name]) => !name.startsWith("floor"))
    .map((cells) => ({
      name: cells.slice(0, keys).join(" · "),
      values: picked.map((i) => figure(cells[i] ?? "", unit)),
    }))
    .filter((row) => row.values.some((v) => v !== undefined));
  const max = Math.max(...data.flatMap((row) => row.values.filter((v) => v !== undefined)), reference ?? 0);
  const label = 300, width = 860, bar = 12, gap = 10, plot = width - label - 70;
  const groupHeight = runtimes.length * bar + gap;
  const height = 60 + data.length * groupHeight + 10;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${
      escape(title)
    }" font-family="system-ui, sans-serif" font-size="12">`,
    `<title>${escape(title)}</title>`,
    `<text x="0" y="16" font-size="14" font-weight="600">${escape(title)}</text>`,
  ];
  runtimes.forEach((runtime, i) => {
    out.push(`<rect x="${label + i * 90}" y="28" width="10" height="10" fill="${COLOURS[i % 3]}"/>`);
    out.push(`<text x="${label + i * 90 + 14}" y="37">${escape(runtime)}</text>`);
  });
  const refX = label + ((reference ?? 0) / max) * plot;
  data.forEach((row, r) => {
    const y = 52 + r * groupHeight;
    out.push(
      `<text x="${label - 8}" y="${y + (runtimes.length * bar) / 2 + 4}" text-anchor="end">${escape(row.name)}</text>`,
    );
    row.values.forEach((value, i) => {
      if (value === undefined) return;
      const w = Math.max(1, (value / max) * plot);
      out.push(
        `<rect x="${label}" y="${y + i * bar}" width="${w.toFixed(1)}" height="${bar - 2}" fill="${COLOURS[i % 3]}"/>`,
      );
      out.push(
        `<text x="${(label + w + 4).toFixed(1)}" y="${y + i * bar + bar - 3}" font-size="10">${value}${unit}</text>`,
      );
    });
  });
  if (reference !== null) {
    out.push(
      `<line x1="${refX.toFixed(1)}" y1="46" x2="${refX.toFixed(1)}" y2="${
        height - 6
      }" stroke="#888" stroke-dasharray="3 3"/>`,
    );
  }
  out.push("</svg>");
  return out.join("\n") + "\n";
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const source = process.argv[2] ?? join(ROOT, "bench", "RESULTS.md");
  const outDir = process.argv[3] ?? join(ROOT, "docs", "public", "perf");
  const markdown = readFileSync(source, "utf8");
  mkdirSync(outDir, { recursive: true });
  for (const chart of CHARTS) {
    const drawn = svg(chart, table(markdown, chart.heading));
    writeFileSync(join(outDir, chart.file), drawn);
    if (chart.file === HEADLINE.chart && process.argv.includes("--headline")) writeFileSync(HEADLINE.file, drawn);
  }
  console.error(`charts: ${CHARTS.length} SVGs from ${source} in ${outDir}`);
}
