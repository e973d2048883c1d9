/**
 * Finds the tool a command names among the server's, or says which there are.
 *
 * @module
 */
import type { Client } from "../client/client.ts";
import type { ToolInfo } from "../client/transport.ts";
import { UsageError } from "./exit-errors.ts";

/**
 * Lists the server's tools and finds one.
 *
 * @param client The client.
 * @param name The tool's name.
 * @param signal Aborted on Ctrl-C.
 * @returns The tool, and every tool listed.
 * @throws {UsageError} For an unknown tool, naming the server's.
 */
export async function findTool(
  client: Client,
  name: string,
  signal: AbortSignal,
): Promise<{ tool: ToolInfo; tools: ToolInfo[] }> {
  const tools = await client.listTools({ signal });
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) {
    const names = tools.map((t) => t.name);
    throw new UsageError(
      `unknown tool ${JSON.stringify(name)}` + (names.length ? ` (the server has ${names.join(", ")})` : ""),
    );
  }
  return { tool, tools };
}
