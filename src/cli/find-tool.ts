/**
 * Finds the tool a command names among the server's, or says which there are.
 *
 * @module
 */
import type { Client } from "../client/client.ts";
import { ProtocolError } from "../errors/error.ts";
import type { ToolInfo } from "../client/transport.ts";
import { UsageError } from "./exit-errors.ts";

/**
 * Lists the server's tools and finds one. A name the listing does not show is refused, naming the server's
 * tools; or, with `unlisted: "call"`, taken as a tool of that name with no schema: a server may call tools it
 * does not list (tool search lists its search and call tools only), so the call is sent and the server says
 * whether the tool exists.
 *
 * @param client The client.
 * @param name The tool's name.
 * @param signal Aborted on Ctrl-C.
 * @param unlisted What a name the listing does not show is: refused (the default), or called.
 * @returns The tool (`inputSchema` empty when called unlisted), and every tool listed.
 * @throws {UsageError} For an unknown tool, naming the server's.
 */
export async function findTool(
  client: Client,
  name: string,
  signal: AbortSignal,
  unlisted: "refuse" | "call" = "refuse",
): Promise<{ tool: ToolInfo; tools: ToolInfo[] }> {
  const tools = await client.listTools({ signal });
  const tool = tools.find((t) => t.name === name) ?? (unlisted === "call" ? { name, inputSchema: {} } : undefined);
  if (tool === undefined) throw unknownTool(name, tools);
  return { tool, tools };
}

/**
 * The usage error for a tool the server does not know: for a `ProtocolError` `unknown_tool` (the server's
 * `unknown_tool` answer), the tools it lists; any other error as it is.
 *
 * @param error What the call failed with.
 * @param name The tool's name.
 * @param tools The tools the server lists.
 * @returns The error to throw.
 */
export function unknownToolOr(error: unknown, name: string, tools: ToolInfo[]): unknown {
  return error instanceof ProtocolError && error.code === "unknown_tool" ? unknownTool(name, tools) : error;
}

function unknownTool(name: string, tools: ToolInfo[]): UsageError {
  const names = tools.map((t) => t.name);
  return new UsageError(
    `unknown tool ${JSON.stringify(name)}` + (names.length ? ` (the server has ${names.join(", ")})` : ""),
  );
}
