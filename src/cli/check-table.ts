/**
 * `mcplite check`'s human output: a summary, the token cost per format and the most expensive tools, the findings as
 * a table (each with its fix below it), and the selection scores.
 *
 * @module
 */
import type { ToolCheckReport } from "../quality/check-report.ts";
import { SEVERITIES } from "../quality/check-report.ts";
import { oneLine } from "./exit-errors.ts";

/** How many of the most expensive tools the cost section names. */
const COSTLIEST = 5;

/**
 * Renders a check's report for a terminal.
 *
 * @param report The report.
 * @returns The text.
 */
export function checkTable(report: ToolCheckReport): string {
  const counts = SEVERITIES.map((severity) => {
    const n = report.findings.filter((f) => f.severity === severity).length;
    return `${n} ${severity}${n === 1 ? "" : "s"}`;
  });
  const lines = [`${report.tools.length} tools: ${counts.join(", ")}`, ""];
  lines.push(`tokens (${report.tokens.encoding}):`);
  for (const { format, total, tools } of report.tokens.formats) {
    const costliest = Object.entries(tools).sort(([, x], [, y]) => y - x).slice(0, COSTLIEST);
    lines.push(
      `  ${format.padEnd(17)} ${String(total).padStart(7)}   ${costliest.map(([n, t]) => `${n} ${t}`).join(", ")}`,
    );
  }
  if (report.findings.length > 0) {
    lines.push("");
    const rows = report.findings.map((f) => [f.severity, f.rule, f.tool ?? "", f.path ?? "", oneLine(f.message)]);
    const header = ["SEVERITY", "RULE", "TOOL", "PATH"];
    const widths = header.map((title, col) => Math.max(...rows.map((row) => row[col].length), title.length));
    lines.push(header.map((title, i) => title.padEnd(widths[i])).join("  ") + "  MESSAGE");
    report.findings.forEach((finding, i) => {
      lines.push(rows[i].map((cell, col) => col < 4 ? cell.padEnd(widths[col]) : cell).join("  "));
      lines.push(`${"".padEnd(widths[0])}  fix: ${oneLine(finding.fix)}`);
    });
  }
  const selection = report.selection;
  if (selection !== undefined) {
    lines.push(
      "",
      `selection (${selection.cases} cases, ranked by tool search): top-1 ${percent(selection.top1)}, top-3 ${
        percent(selection.top3)
      }`,
    );
    for (const c of selection.confusions) {
      lines.push(`  ${c.picked} found first in place of ${c.expect} (${c.prompts.length}×)`);
    }
  }
  const model = report.model;
  if (model !== undefined) {
    lines.push(
      "",
      `model lane: ${percent(model.accuracy)} right, ${model.stale.length} stale (tool list ${
        model.toolList.slice(0, 12)
      })`,
    );
  }
  return lines.join("\n") + "\n";
}

function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}
