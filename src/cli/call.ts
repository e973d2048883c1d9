/**
 * `mcplite call <target> <tool>`: checks the arguments against the tool's input schema, calls it with
 * a progress view on stderr, and prints the result on stdout. A tool the listing does not show (tool
 * search lists its search and call tools only) is called all the same: the server says if it is unknown. A call refused until the user visits
 * pages (`-32042`, MCP 2025-11-25) shows them, then calls again once the user is done.
 *
 * @module
 */
import { argumentsFor } from "./arg-values.ts";
import { ProtocolError } from "../errors/error.ts";
import type { CommandContext } from "./command.ts";
import { ExitCode, oneLine } from "./exit-errors.ts";
import { findTool, unknownToolOr } from "./find-tool.ts";
import { formatResult } from "./format.ts";
import { createProgressView } from "./progress.ts";
import type { UrlElicitRequest } from "../client/input.ts";
import { isObject } from "../internal/is-object.ts";

/** How many times a call refused with `-32042` is tried again after the user visited the pages. */
const MAX_VISITS = 3;

/**
 * Runs `call`.
 *
 * @param ctx The client, the command line, the terminal and the interrupt signal.
 * @returns 0, or 1 when the tool answered `isError`.
 * @throws {UsageError} For a tool the server answers unknown (naming the tools it lists), or arguments
 *   its schema cannot read.
 */
export async function callCommand(ctx: CommandContext): Promise<number> {
  const { client, args, terminal, signal } = ctx;
  const name = args.tool!;
  const { tool, tools } = await findTool(client, name, signal, "call");
  const input = argumentsFor(tool, args.argsJson, args.argPairs);
  const view = ctx.view = createProgressView(terminal, name);
  let result;
  try {
    for (let visits = 0;; visits++) {
      try {
        result = await client.callTool(name, input, {
          signal,
          onProgress: (p) => view.progress(p),
          onPartial: (p) => view.partial(p),
          onLog: (entry) => view.log(entry),
        });
        break;
      } catch (error) {
        const pages = visits < MAX_VISITS ? pagesRequiredBy(error) : undefined;
        if (pages === undefined || ctx.elicit === undefined) throw unknownToolOr(error, name, tools);
        for (const page of pages) {
          if ((await ctx.elicit(page)).action !== "accept") throw error;
        }
      }
    }
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

/**
 * The pages a `URLElicitationRequiredError` names (MCP 2025-11-25, Elicitation: `-32042`,
 * `data.elicitations`), as URL-mode requests.
 *
 * @param error What the call failed with.
 * @returns The pages, or `undefined` for any other error.
 */
function pagesRequiredBy(error: unknown): UrlElicitRequest[] | undefined {
  if (!(error instanceof ProtocolError) || error.rpcCode !== -32042 || !isObject(error.data)) return undefined;
  const { elicitations } = error.data;
  if (!Array.isArray(elicitations)) return undefined;
  const pages = elicitations.filter((page) => isObject(page) && typeof page.url === "string");
  return pages.length === 0 ? undefined : pages.map((page) => ({
    mode: "url",
    message: typeof page.message === "string" ? page.message : "The server needs you to open a page",
    url: page.url as string,
    ...(typeof page.elicitationId === "string" ? { elicitationId: page.elicitationId } : {}),
  }));
}
