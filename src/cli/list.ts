/**
 * `mcplite list <target>`: the tools, one per line (or as a JSON array with `--json`).
 *
 * @module
 */
import { ExitCode } from "./exit-errors.ts";
import { formatToolList } from "./format.ts";
import type { CommandContext } from "./command.ts";

/**
 * Runs `list`.
 *
 * @param ctx The client, the command line, the terminal and the interrupt signal.
 * @returns The exit code.
 */
export async function listCommand(ctx: CommandContext): Promise<number> {
  const tools = await ctx.client.listTools({ signal: ctx.signal });
  await ctx.terminal.out(ctx.args.json ? JSON.stringify(tools, null, 2) + "\n" : formatToolList(tools));
  return ExitCode.Ok;
}
