/**
 * The search tool of tool search: finds the tools that match what the model is looking for and
 * answers each with its name, description and input schema, as `tools/list` would (MCP 2025-11-25,
 * Tools), so that the model can call it at once.
 *
 * @module
 */
import * as v from "valibot";
import { describeTool, type Tool } from "../core/definitions/tool.ts";
import { defineTool } from "../tool/define-tool.ts";
import { schemaDigest } from "../internal/schema-digest.ts";
import { servedPrefix } from "./served-namespace.ts";
import type { ToolCatalog } from "./tool-catalog.ts";

/** What the search tool takes (built when the tool is: a bundle without tool search leaves valibot's pieces out). */
const searchInput = () =>
  v.object({
    query: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(1000),
      v.description('What you want to do, in a few words (e.g. "send an email", "list files in a folder")'),
    ),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description("How many tools"))),
  });

/** How the search tool is named and how many tools it answers by default. */
export interface SearchToolSettings {
  /** Its name. */
  readonly name: string;
  /** The tools it answers when the model does not say. */
  readonly limit: number;
  /** The name of the call-by-name tool, named in its description. */
  readonly callTool: string;
  /** The most characters of JSON a found tool's input schema takes before it is cut down. */
  readonly maxSchemaBytes: number;
  /** Told the tools each search found (to reveal them in the lists), if anything is. */
  readonly onFound?: (names: readonly string[]) => void;
}

/**
 * Builds the search tool over a catalog.
 *
 * @param catalog The server's tools.
 * @param settings Its name, its default limit, the call tool's name.
 * @returns The tool.
 */
// deno-lint-ignore no-explicit-any
export function searchToolsTool(catalog: ToolCatalog, settings: SearchToolSettings): Tool<string, any, any, any> {
  return defineTool(settings.name)
    .describe(
      `Searches this server's tools (more than are listed) by what you want to do. Answers the best ` +
        `matches with their names, descriptions and input schemas; call one with ${settings.callTool} ` +
        `(or by its name, where your client lets you).`,
    )
    .input(searchInput())
    .annotations({ readOnlyHint: true, openWorldHint: false })
    .handle(async ({ query, limit }, ctx) => {
      const found = await catalog.search(query, limit ?? settings.limit, ctx.auth);
      settings.onFound?.(found.map((tool) => tool.name));
      const prefix = servedPrefix(ctx.tool, settings.name); // the names as the caller's server serves them
      return {
        tools: found.map((tool) => {
          const described = describeTool(tool, false);
          return {
            ...described,
            name: prefix + described.name,
            inputSchema: schemaDigest(described.inputSchema, settings.maxSchemaBytes),
          };
        }),
      };
    });
}
