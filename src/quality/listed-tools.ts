/**
 * A listed tool list (`tools/list`, whoever's server) as tool search reads a server's own tools, so that the
 * tool-quality check ranks another server's tools exactly as `toolSearch()` ranks ours.
 *
 * @module
 */
import type { ToolInfo } from "../client/transport.ts";
import { shownToModel } from "../client/tool-shapes.ts";
import { ToolCatalog } from "../tool-search/tool-catalog.ts";
import type { SearchableTool } from "../tool-search/tool-fields.ts";
import { catalogSettings, type ToolSearchOptions } from "../tool-search/tool-search.ts";

/** A listed tool, searchable, with its listing. */
export interface ListedTool extends SearchableTool {
  /** The tool as listed. */
  readonly info: ToolInfo;
}

/**
 * The tools a model is offered of a list: not MCP-lite's system tools (`redeem`), which a client drives itself, nor
 * a tool only an app's view may call (SEP-1865, Visibility).
 *
 * @param tools The tools, as listed.
 * @returns Those a model sees, in list order.
 */
export function offeredTools(tools: readonly ToolInfo[]): ToolInfo[] {
  return [...shownToModel(tools, {})];
}

/**
 * Ranks listed tools as tool search does.
 *
 * @param tools The tools, as listed.
 * @param synonyms Words users say and the tools' words for them, as given to `toolSearch({ synonyms })`.
 * @returns The catalog and the searchable tools, in list order.
 */
export function listedCatalog(
  tools: readonly ToolInfo[],
  synonyms?: ToolSearchOptions["synonyms"],
): { catalog: ToolCatalog<ListedTool>; listed: ListedTool[] } {
  const listed = tools.map((info): ListedTool => ({
    info,
    name: info.name,
    title: info.title ?? info.annotations?.title,
    description: info.description,
    annotations: info.annotations,
    meta: info._meta,
    scopes: undefined,
    input: { jsonSchema: info.inputSchema },
  }));
  const source = { tools: listed, onChange: () => {} }; // a list read once does not change
  return { catalog: new ToolCatalog(source, catalogSettings({ synonyms }, new Set())), listed };
}
