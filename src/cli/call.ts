/**
 * `mcplite call <target> <tool>`: checks the arguments against the tool's input schema, calls it with
 * a progress view on stderr, and prints the result on stdout.
 *
 * @module
 */
import { argumentsFor } from "./arg-values.ts";
import type { CommandContext } from "./command.ts";
import { ExitCode, oneLine } from "./exit-errors.ts";
import { findTool } from "./find-tool.ts";
import { formatResult } from "./format.ts";
import { createProgressView } from "./progress.ts";

/**
 * Runs `call`.
 *
 * @param ctx The client, the command line, the terminal and the interrupt signal.
 * @returns 0, or 1 when the tool answered `isError`.
 * @throws {UsageError} For an unknown tool or arguments its schema cannot read.
 */
export async function callCommand(ctx: CommandContext): Promise<number> {
  const { client, args, terminal, signal } = ctx;
  const name = args.tool!;
  const { tool } = await findTool(client, name, signal);
  const input = argumentsFor(tool, args.argsJson, args.argPairs);
  const view = ctx.view = createProgressView(terminal, name);
  let result;
  try {
    result = await client.callTool(name, input, {
      signal,
      onProgress: (p) => view.progress(p),
      onPartial: (p) => view.partial(p),
      onLog: (entry) => view.log(entry),
    });
  } finally {
    await view.stop();
    ctx.view = undefined;
  }
  const failed = result.isError === true;
  if (args.json) await terminal.out(JSON.stringify(result, null, 2) + "\n");
  else if (failed) await terminal.err(`mcplite: ${name} failed: ${oneLine(formatResult(result)) || "(no message)"}\n`);
  else await terminal.out(formatResult(result));
  return failed ? ExitCode.ToolFailed : ExitCode.Ok;
}
