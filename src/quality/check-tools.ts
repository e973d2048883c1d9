/**
 * `checkTools()`: the tool-quality check, offline, as a function over a server of ours or any listed tool list (and
 * as `mcplite check` over any server's): the tools a picker would confuse, what the list costs in tokens, a lint of
 * names and schemas, and the scores of selection cases, optionally asked of a model and replayed.
 *
 * @module
 */
import type { Client } from "../client/client.ts";
import { createClient } from "../client/create-client.ts";
import type { ToolInfo } from "../client/transport.ts";
import type { FetchTarget } from "../client/transports/in-process.ts";
import type {
  ModelLane,
  SelectionCase,
  Severity,
  TokenEncoding,
  ToolCheckReport,
  ToolFinding,
  ToolRule,
} from "./check-report.ts";
import { ENCODINGS, SEVERITIES } from "./check-report.ts";
import { confusablePairs } from "./confusable-pairs.ts";
import { listedCatalog, offeredTools } from "./listed-tools.ts";
import { runModelLane } from "./model-lane.ts";
import { lintTools } from "./schema-lint.ts";
import { caseErrors, scoreSelection } from "./selection-cases.ts";
import { tokenCost } from "./token-cost.ts";

/** The options of {@link checkTools}. */
export interface ToolCheckOptions {
  /** Selection cases, scored by tool search's ranking: `report.selection`. */
  readonly cases?: readonly SelectionCase[];
  /** The model lane: the same cases asked of a model of yours, recorded and replayed: `report.model`. */
  readonly model?: ModelLane;
  /** The most tokens the list may cost, in any format: more is an error (`token-budget`). */
  readonly maxTokens?: number;
  /** The tokenizer's encoding (default `o200k_base`, GPT-4o's and later models'). */
  readonly encoding?: TokenEncoding;
  /** Words users say and the tools' words for them, as given to `toolSearch({ synonyms })`: the same ranking. */
  readonly synonyms?: Readonly<Record<string, readonly string[]>>;
  /**
   * Tools to call, with their arguments, when checking a server: one whose result carries structured content without
   * an output schema is reported (`output-schema`). A list of tools cannot be called: it is ignored then.
   */
  readonly calls?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Findings to leave out: a rule (`"required"`), or a rule and a tool (`"tool-name:me.sendMail"`). */
  readonly ignore?: readonly (ToolRule | `${ToolRule}:${string}`)[];
}

/**
 * Checks a tool list as a model would meet it, offline: confusable pairs (names alike, descriptions that rank each
 * other as high as themselves under tool search's ranking, the same required arguments), the list's cost in tokens
 * per provider format (counted with `gpt-tokenizer`), a lint of names and schemas (each finding with its tool, its
 * JSON Pointer and a fix), and, given cases, how often each prompt finds its tool first and in the first three. The
 * selection scores measure how separable the descriptions are, not a model's behaviour: the `model` lane asks a model.
 *
 * @param target A server (or any `{ fetch }`: its tools are listed as a client sees them, grouped, proxied and
 *   imported ones included), or a tool list (`await client.listTools()` of any server).
 * @param options Cases, a model lane, a token budget, the encoding, synonyms, tools to call, findings to ignore.
 * @returns The report; `report.worst` is the worst finding's severity, for a test to gate on.
 * @throws {TypeError} When `maxTokens` is not a positive integer, `encoding` not one of the two, or the model lane's
 *   recordings are not its own.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "@mcplite/sdk";
 * import { checkTools } from "@mcplite/sdk/testing";
 *
 * const server = createServer({ name: "issues", version: "1.0.0" })
 *   .tool(defineTool("list_issues").describe("Lists a repository's issues, newest first.")
 *     .input(v.object({ state: v.pipe(v.string(), v.description('"open", "closed" or "all"')) }))
 *     .handle(() => []))
 *   .tool(defineTool("get_issue").describe("Gets one issue by its number, with its comments.")
 *     .input(v.object({ number: v.pipe(v.number(), v.description("The number")) }))
 *     .handle(() => ({})));
 *
 * const report = await checkTools(server, {
 *   cases: [{ prompt: "show me issue 42 and its comments", expect: "get_issue", forbid: ["list_issues"] }],
 * });
 * assert.deepEqual(report.findings.map((f) => [f.rule, f.tool, f.path]), [
 *   ["fixed-set", "list_issues", "/inputSchema/properties/state"],
 * ]);
 * assert.equal(report.selection?.top1, 1);
 * const openai = report.tokens.formats.find((f) => f.format === "openai-chat")!;
 * assert.equal(openai.tools.list_issues + openai.tools.get_issue, openai.total);
 * ```
 */
export async function checkTools(
  target: FetchTarget | readonly ToolInfo[],
  options: ToolCheckOptions = {},
): Promise<ToolCheckReport> {
  const { maxTokens } = options;
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens > 0)) {
    throw new TypeError("checkTools(): maxTokens is a positive integer");
  }
  if (options.encoding !== undefined && !ENCODINGS.includes(options.encoding)) {
    throw new TypeError(`checkTools(): encoding is ${ENCODINGS.join(" or ")}`);
  }
  if (isToolList(target)) return await checkList(target, options, []);
  const client = createClient(target);
  try {
    const listed = await client.listTools();
    return await checkList(listed, options, await calledFindings(client, listed, options.calls ?? {}));
  } finally {
    await client.close();
  }
}

/**
 * Checks a listed tool list: what `checkTools()` and `mcplite check` share.
 *
 * @param listed The tools, as listed.
 * @param options The check's options.
 * @param more Findings made elsewhere (from calling the tools).
 * @returns The report.
 */
export async function checkList(
  listed: readonly ToolInfo[],
  options: ToolCheckOptions,
  more: readonly ToolFinding[],
): Promise<ToolCheckReport> {
  const tools = offeredTools(listed);
  const { catalog, listed: searchable } = listedCatalog(tools, options.synonyms);
  const findings: ToolFinding[] = [...lintTools(tools), ...more];
  const confusable = await confusablePairs(catalog, searchable);
  for (const pair of confusable) {
    const [first, second] = pair.tools;
    const words = (name: string) => pair.apart[name].length === 0 ? "nothing" : pair.apart[name].join(", ");
    findings.push({
      severity: "warning",
      rule: "confusable",
      tool: first,
      message: `${JSON.stringify(first)} and ${JSON.stringify(second)} are confusable: ${pair.why}`,
      fix: `say in each description when to use it rather than the other (only ${first} has: ${
        words(first)
      }; only ${second}: ${words(second)})`,
    });
  }
  const tokens = await tokenCost(tools, options.encoding ?? "o200k_base");
  for (const { format, total } of tokens.formats) {
    if (options.maxTokens === undefined || total <= options.maxTokens) continue;
    findings.push({
      severity: "error",
      rule: "token-budget",
      message:
        `the list costs ${total} tokens in ${format}'s format (${tokens.encoding}), over the budget of ${options.maxTokens}`,
      fix:
        "shorten the longest descriptions and schemas, or list fewer tools (toolSearch() lists a search tool instead)",
    });
  }
  let selection;
  let model;
  const cases = options.cases ?? [];
  if (options.cases !== undefined) {
    const errors = caseErrors(cases, searchable);
    findings.push(...errors);
    if (errors.length === 0) {
      const scored = await scoreSelection(catalog, searchable, cases);
      selection = scored.score;
      findings.push(...scored.findings);
      if (options.model !== undefined) {
        const lane = await runModelLane(options.model, tools, cases);
        model = lane.score;
        findings.push(...lane.findings);
      }
    }
  }
  const ignored = new Set<string>(options.ignore ?? []);
  const kept = findings
    .filter((f) => !ignored.has(f.rule) && !ignored.has(`${f.rule}:${f.tool}`))
    .map((finding, order) => ({ finding, order }))
    .sort((x, y) => rankOf(x.finding.severity) - rankOf(y.finding.severity) || x.order - y.order)
    .map(({ finding }) => finding);
  return {
    tools: tools.map((tool) => tool.name),
    findings: kept,
    confusable,
    tokens,
    ...(selection === undefined ? {} : { selection }),
    ...(model === undefined ? {} : { model }),
    worst: kept[0]?.severity,
  };
}

/**
 * Whether a finding is as bad as a severity or worse.
 *
 * @param finding The finding's severity.
 * @param threshold The severity to compare with.
 * @returns True when `finding` is `threshold` or worse.
 */
export function atLeast(finding: Severity, threshold: Severity): boolean {
  return rankOf(finding) <= rankOf(threshold);
}

function rankOf(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

function isToolList(target: FetchTarget | readonly ToolInfo[]): target is readonly ToolInfo[] {
  return Array.isArray(target);
}

/**
 * Calls the tools named, and finds those whose result carries structured content without an output schema (MCP
 * 2025-11-25, Tools, "Output Schema": a client validates structured content against it, and a model reads its shape).
 *
 * @param client The client of the server.
 * @param listed The tools, as listed.
 * @param calls The tools to call, with their arguments.
 * @returns The findings.
 * @throws {TypeError} When a tool named is not listed.
 */
export async function calledFindings(
  client: Client,
  listed: readonly ToolInfo[],
  calls: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
): Promise<ToolFinding[]> {
  const findings: ToolFinding[] = [];
  for (const [name, args] of Object.entries(calls)) {
    const tool = listed.find((t) => t.name === name);
    if (tool === undefined) {
      throw new TypeError(`checkTools(): calls names ${JSON.stringify(name)}, which is not listed`);
    }
    const result = await client.callTool(name, { ...args });
    if (result.isError === true || result.structuredContent === undefined || tool.outputSchema !== undefined) continue;
    findings.push({
      severity: "warning",
      rule: "output-schema",
      tool: name,
      path: "/outputSchema",
      message: "the tool returns structured content but lists no output schema: a model cannot know its shape",
      fix: "declare its output (`.output(schema)`, or `outputSchema` in the listing)",
    });
  }
  return findings;
}
