/**
 * Selection cases scored offline: each prompt ranked by tool search's ranking (BM25F over names, descriptions and
 * arguments), the expected tool wanted first and the forbidden ones below it. What it measures is how separable the
 * descriptions are under a lexical ranking, not what a model does: the model lane (`model-lane.ts`) asks a model.
 *
 * @module
 */
import { isObject } from "../internal/is-object.ts";
import type { ToolCatalog } from "../tool-search/tool-catalog.ts";
import type { CaseResult, SelectionCase, SelectionScore, ToolFinding } from "./check-report.ts";
import type { ListedTool } from "./listed-tools.ts";
import { pointerToken } from "./schema-lint.ts";

/** How many tools a case's `top` names. */
const TOP = 3;

/**
 * Checks the cases against the list: each names a listed tool, and arguments that tool has.
 *
 * @param cases The cases.
 * @param listed The tools.
 * @returns An error finding per case that does not fit the list.
 */
export function caseErrors(cases: readonly SelectionCase[], listed: readonly ListedTool[]): ToolFinding[] {
  const byName = new Map(listed.map((tool) => [tool.name, tool]));
  const findings: ToolFinding[] = [];
  for (const { prompt, expect, arguments: args, forbid = [] } of cases) {
    const tool = byName.get(expect);
    const missing = tool === undefined ? [expect] : forbid.filter((name) => !byName.has(name));
    if (missing.length > 0) {
      findings.push({
        severity: "error",
        rule: "selection",
        tool: missing[0],
        message: `the case ${JSON.stringify(prompt)} names ${JSON.stringify(missing[0])}, which the list does not hold`,
        fix: "name a listed tool (was it renamed?)",
      });
      continue;
    }
    const schema = tool!.info.inputSchema as unknown;
    const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
    for (const name of Object.keys(args ?? {}).filter((name) => !(name in properties))) {
      findings.push({
        severity: "error",
        rule: "selection",
        tool: expect,
        path: `/inputSchema/properties/${pointerToken(name)}`,
        message: `the case ${JSON.stringify(prompt)} expects an argument ${
          JSON.stringify(name)
        } the tool does not take`,
        fix: "name one of the tool's arguments",
      });
    }
  }
  return findings;
}

/**
 * Ranks each case's prompt and scores the cases.
 *
 * @param catalog The list's catalog.
 * @param listed The tools.
 * @param cases The cases (each naming listed tools: {@link caseErrors}).
 * @returns The score, and a warning per case whose tool did not rank first or ranked below a forbidden one.
 */
export async function scoreSelection(
  catalog: ToolCatalog<ListedTool>,
  listed: readonly ListedTool[],
  cases: readonly SelectionCase[],
): Promise<{ score: SelectionScore; findings: ToolFinding[] }> {
  const results: CaseResult[] = [];
  const findings: ToolFinding[] = [];
  const confusions = new Map<string, { expect: string; picked: string; prompts: string[] }>();
  for (const { prompt, expect, forbid = [] } of cases) {
    const ranked = (await catalog.ranked(prompt, listed.length, undefined)).map(({ tool }) => tool.name);
    const rank = ranked.indexOf(expect) + 1;
    const above = rank === 0 ? ranked : ranked.slice(0, rank - 1);
    const forbidden = forbid.filter((name) => above.includes(name));
    results.push({ prompt, expect, rank, top: ranked.slice(0, TOP), forbidden });
    if (rank === 1 && forbidden.length === 0) continue;
    const picked = ranked[0] ?? "";
    if (rank !== 1 && picked !== "") {
      const key = `${expect}\n${picked}`;
      let confusion = confusions.get(key);
      if (confusion === undefined) confusions.set(key, confusion = { expect, picked, prompts: [] });
      confusion.prompts.push(prompt);
    }
    findings.push({
      severity: "warning",
      rule: "selection",
      tool: expect,
      message: rank === 0
        ? `the case ${JSON.stringify(prompt)} does not find ${JSON.stringify(expect)} at all`
        : `the case ${JSON.stringify(prompt)} ranks ${JSON.stringify(expect)} ${ordinal(rank)}, after ${
          above.slice(0, TOP).map((name) => JSON.stringify(name)).join(", ")
        }${forbidden.length > 0 ? ` (forbidden: ${forbidden.join(", ")})` : ""}`,
      fix: `say in ${JSON.stringify(expect)}'s description the words users use for this, and in ${
        JSON.stringify(above[0])
      }'s when to use it instead`,
    });
  }
  const share = (passed: number) => cases.length === 0 ? 1 : passed / cases.length;
  const score: SelectionScore = {
    cases: cases.length,
    top1: share(results.filter((r) => r.rank === 1).length),
    top3: share(results.filter((r) => r.rank >= 1 && r.rank <= TOP).length),
    results,
    confusions: [...confusions.values()].sort((x, y) => y.prompts.length - x.prompts.length),
  };
  return { score, findings };
}

/** 1st, 2nd, 3rd, 4th, …, 11th, 12th, 13th, 21st. */
function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${suffix}`;
}
