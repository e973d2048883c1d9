/**
 * The model lane: selection cases asked of a model through a function the user passes (any provider: the SDK calls
 * none), each choice recorded in a JSON file under its prompt and the tool list's hash. CI replays the file offline,
 * and a recording made for another tool list is reported stale: the descriptions changed since the model chose.
 *
 * @module
 */
import type { ToolInfo } from "../client/transport.ts";
import { canonicalHash, canonicalJson } from "../internal/canonical-json.ts";
import { isObject } from "../internal/is-object.ts";
import type { ModelChoice, ModelLane, ModelResult, ModelScore, SelectionCase, ToolFinding } from "./check-report.ts";

/** The recordings file. */
interface Recordings {
  /** The format's version. */
  readonly version: 1;
  /** One choice per prompt, with the tool list it was made on. */
  readonly choices: readonly Recorded[];
}

/** One recorded choice. */
interface Recorded {
  readonly prompt: string;
  /** The tool list's hash when the model chose. */
  readonly toolList: string;
  /** The tool the model called, or `null`. */
  readonly chosen: ModelChoice | null;
}

/** The file system calls the lane makes (`node:fs/promises`, which Deno and Bun have). */
interface Fs {
  readFile(path: string, encoding: "utf8"): Promise<string>;
  writeFile(path: string, text: string): Promise<void>;
}

/**
 * The hash a recording is keyed by: the SHA-256 of the tool list's canonical JSON (sorted by name), so that any change
 * a model could notice (a name, a description, a schema) makes the recordings stale.
 *
 * @param tools The tools offered to the model.
 * @returns The hex digest.
 */
export async function toolListHash(tools: readonly ToolInfo[]): Promise<string> {
  return await canonicalHash([...tools].sort((x, y) => x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
}

/**
 * Runs the cases through the lane: each replayed from the recordings for this tool list, or asked (and recorded) when
 * the lane has `choose`.
 *
 * @param lane The lane.
 * @param tools The tools offered to the model.
 * @param cases The cases.
 * @returns The score, and a warning per case chosen wrong, stale or not recorded.
 * @throws {TypeError} When the recordings file is not one this lane wrote.
 */
export async function runModelLane(
  lane: ModelLane,
  tools: readonly ToolInfo[],
  cases: readonly SelectionCase[],
): Promise<{ score: ModelScore; findings: ToolFinding[] }> {
  const fs = await import("node:fs/promises") as Fs;
  const toolList = await toolListHash(tools);
  const recorded = await readRecordings(fs, lane.recordings);
  const kept: Recorded[] = [];
  const results: ModelResult[] = [];
  const findings: ToolFinding[] = [];
  const stale: string[] = [];
  let asked = false;
  for (const { prompt, expect, arguments: args, forbid = [] } of cases) {
    const earlier = recorded.filter((r) => r.prompt === prompt);
    const current = earlier.find((r) => r.toolList === toolList);
    let chosen: ModelChoice | null | undefined = current?.chosen;
    let source: ModelResult["source"] = current === undefined ? "missing" : "recorded";
    if (current === undefined && lane.choose !== undefined) {
      chosen = (await lane.choose({ prompt, tools })) ?? null;
      source = "asked";
      asked = true;
    }
    if (chosen !== undefined) kept.push({ prompt, toolList, chosen });
    else if (earlier.length > 0) kept.push(...earlier); // kept until asked again
    const passed = chosen != null && chosen.name === expect && !forbid.includes(chosen.name) &&
      Object.entries(args ?? {}).every(([key, value]) =>
        canonicalJson(chosen.arguments?.[key]) === canonicalJson(value)
      );
    results.push({ prompt, expect, ...(chosen === undefined ? {} : { chosen }), source, passed });
    if (chosen === undefined) {
      const isStale = earlier.length > 0;
      if (isStale) stale.push(prompt);
      findings.push({
        severity: "warning",
        rule: "model",
        tool: expect,
        message: isStale
          ? `the case ${JSON.stringify(prompt)} was recorded for another tool list: the tools changed since`
          : `the case ${JSON.stringify(prompt)} has no recorded choice`,
        fix: "run the check with the lane's `choose` (a model and its key) to record it again",
      });
    } else if (!passed) {
      findings.push({
        severity: "warning",
        rule: "model",
        tool: expect,
        message: `for ${JSON.stringify(prompt)} the model ${
          chosen === null
            ? "called no tool"
            : `called ${JSON.stringify(chosen.name)} with ${canonicalJson(chosen.arguments ?? {})}`
        }, not ${JSON.stringify(expect)}${args === undefined ? "" : ` with ${canonicalJson(args)}`}`,
        fix: `say in ${JSON.stringify(expect)}'s description when to use it, and what its arguments take`,
      });
    }
  }
  if (asked) {
    const file: Recordings = { version: 1, choices: kept };
    await fs.writeFile(lane.recordings, JSON.stringify(file, null, 2) + "\n");
  }
  const answered = results.filter((r) => r.chosen !== undefined);
  const accuracy = answered.length === 0 ? 0 : answered.filter((r) => r.passed).length / answered.length;
  return { score: { toolList, accuracy, results, stale }, findings };
}

/** The recordings in a file; none when it does not exist yet. */
async function readRecordings(fs: Fs, path: string): Promise<readonly Recorded[]> {
  let text: string;
  try {
    text = await fs.readFile(path, "utf8");
  } catch (error) {
    if (isObject(error) && error.code === "ENOENT") return [];
    throw error;
  }
  const file = JSON.parse(text) as unknown;
  if (!isObject(file) || file.version !== 1 || !Array.isArray(file.choices)) {
    throw new TypeError(`${path} is not a model lane's recordings ({ version: 1, choices: [...] })`);
  }
  return file.choices as Recorded[];
}
