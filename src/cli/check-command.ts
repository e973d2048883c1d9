/**
 * `mcplite check <target>`: the tool-quality check over any MCP, MCP-lite or Webtools server, whoever wrote it, or a
 * tool list saved in a JSON file (the same check as `checkTools()` of `@mcplite/sdk/testing`): the tools a model would
 * confuse, what the list costs in tokens, a lint of names and schemas, and, with `--cases`, selection cases scored.
 * Exits 1 when a finding is as bad as `--fail-on` (default `error`), so that CI can gate on it.
 *
 * @module
 */
import { isObject } from "../internal/is-object.ts";
import type { ToolInfo } from "../client/transport.ts";
import type { SelectionCase, ToolFinding, ToolRule } from "../quality/check-report.ts";
import { atLeast, calledFindings, checkList } from "../quality/check-tools.ts";
import { checkTable } from "./check-table.ts";
import type { CliArgs } from "./args.ts";
import type { CommandContext } from "./command.ts";
import type { Terminal } from "./terminal.ts";
import { ExitCode, UsageError } from "./exit-errors.ts";

/**
 * Runs `check`.
 *
 * @param ctx The client, the command line, the terminal and the interrupt signal.
 * @returns 0, or 1 when a finding is as bad as `--fail-on`.
 * @throws {UsageError} For a wrong `--cases` file or `--call` (the other options are read with the command line).
 */
export async function checkCommand(ctx: CommandContext): Promise<number> {
  const { client, args, terminal, signal } = ctx;
  const calls = Object.fromEntries(args.calls.map(callOf));
  const listed = await client.listTools({ signal });
  const unknown = Object.keys(calls).find((name) => !listed.some((tool) => tool.name === name));
  if (unknown !== undefined) {
    throw new UsageError(`--call names ${JSON.stringify(unknown)}, which the server does not list`);
  }
  return await report(terminal, args, listed, await calledFindings(client, listed, calls));
}

/**
 * Runs `check <file>.json`: the check of a tool list saved from any server, a `tools/list` result or its `tools` array
 * (the GitHub MCP server's snapshots, a list another client printed), with no server to connect to.
 *
 * @param terminal The terminal.
 * @param args The command line (`toolsFile` set).
 * @returns 0, or 1 when a finding is as bad as `--fail-on`.
 * @throws {UsageError} For a file that is not a tool list, or a wrong `--cases` file.
 */
export async function checkFileCommand(terminal: Terminal, args: CliArgs): Promise<number> {
  const path = args.toolsFile!;
  const { readFile } = await import("node:fs/promises");
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new UsageError(`${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const tools = Array.isArray(parsed) ? parsed : isObject(parsed) ? parsed.tools : undefined;
  const valid = Array.isArray(tools) &&
    tools.every((tool) => isObject(tool) && typeof tool.name === "string" && "inputSchema" in tool);
  if (!valid) {
    throw new UsageError(`${path}: not a tool list (a tools/list result, or an array of { name, inputSchema })`);
  }
  return await report(terminal, args, tools as ToolInfo[], []);
}

/** Checks a list, prints the report as a table or JSON, and gives the exit code of its worst finding. */
async function report(
  terminal: Terminal,
  args: CliArgs,
  listed: readonly ToolInfo[],
  called: readonly ToolFinding[],
): Promise<number> {
  const cases = args.cases === undefined ? undefined : await readCases(args.cases);
  const report = await checkList(listed, {
    encoding: args.encoding ?? "o200k_base",
    ...(args.maxTokens === undefined ? {} : { maxTokens: args.maxTokens }),
    ...(cases === undefined ? {} : { cases }),
    ignore: args.ignore as ToolRule[],
  }, called);
  await terminal.out(args.json ? JSON.stringify(report, null, 2) + "\n" : checkTable(report));
  const failed = report.worst !== undefined && atLeast(report.worst, args.failOn ?? "error");
  return failed ? ExitCode.ToolFailed : ExitCode.Ok;
}

/** Reads `--cases`: a JSON array of selection cases. */
async function readCases(path: string): Promise<SelectionCase[]> {
  const { readFile } = await import("node:fs/promises");
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new UsageError(`--cases ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const valid = Array.isArray(parsed) &&
    parsed.every((c) =>
      isObject(c) && typeof c.prompt === "string" && typeof c.expect === "string" &&
      (c.arguments === undefined || isObject(c.arguments)) &&
      (c.forbid === undefined || Array.isArray(c.forbid) && c.forbid.every((name) => typeof name === "string"))
    );
  if (!valid) {
    throw new UsageError(`--cases ${path}: not a JSON array of { "prompt": …, "expect": …, "arguments"?, "forbid"? }`);
  }
  return parsed as SelectionCase[];
}

/** Reads `--call <tool>[=<json arguments>]`. */
function callOf(raw: string): [string, Record<string, unknown>] {
  const eq = raw.indexOf("=");
  if (eq < 0) return [raw, {}];
  let args: unknown;
  try {
    args = JSON.parse(raw.slice(eq + 1));
  } catch {
    args = undefined;
  }
  if (!isObject(args)) throw new UsageError(`--call takes <tool>=<JSON object>, not ${JSON.stringify(raw)}`);
  return [raw.slice(0, eq), args];
}
