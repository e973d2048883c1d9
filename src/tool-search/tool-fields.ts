/**
 * What tool search reads of a tool: its name, its description (with its title), and its arguments'
 * names and descriptions (the top-level properties of its input schema, MCP 2025-11-25, Tools,
 * `inputSchema`), as terms per field.
 *
 * @module
 */
import type { AnyTool } from "../core/definitions/tool.ts";
import { isObject } from "../internal/is-object.ts";
import { stem } from "./english-stem.ts";
import { searchTokens } from "./search-tokens.ts";

/** The fields a tool is searched by, in the order of {@link toolFields}' terms. */
export const FIELDS = ["action", "path", "summary", "description", "arguments"] as const;

/**
 * What the search reads of a tool: a tool of ours (`AnyTool`) is one, and so is a tool another server lists, read back
 * by the tool-quality check (`src/quality/listed-tools.ts`).
 */
export type SearchableTool = Pick<AnyTool, "name" | "title" | "description" | "annotations" | "meta" | "scopes"> & {
  /** Its input: the JSON Schema clients are given. */
  readonly input: { readonly jsonSchema: unknown };
};

/** A tool's terms, one list per field of {@link FIELDS}. */
export type FieldTerms = readonly (readonly string[])[];

/**
 * A tool's search terms per field. Its name is two fields: the action, its last segment
 * (`sendMail` of `me.sendMail`), which says what it does, and the path before it (`me`), which says
 * on what; a name without segments is all action.
 *
 * @param tool The tool.
 * The description is two as well: its summary (the title, and the description's first paragraph or
 * sentence, as OpenAPI's `summary` becomes) and the rest.
 *
 * @returns Its terms: action, path, summary, the rest of the description, arguments (names and descriptions).
 */
export function toolFields(tool: SearchableTool): FieldTerms {
  const description = tool.description ?? "";
  const end = description.search(/\n\s*\n|(?<=[.!?])\s/); // the summary: up to a blank line or the first sentence's end
  const summary = [tool.title, end < 0 ? description : description.slice(0, end)].filter((t) => t !== undefined);
  const cut = Math.max(tool.name.lastIndexOf("."), tool.name.lastIndexOf("/"));
  return [
    searchTokens(tool.name.slice(cut + 1)),
    searchTokens(tool.name.slice(0, Math.max(cut, 0))),
    searchTokens(summary.join(" ")),
    searchTokens(end < 0 ? "" : description.slice(end)),
    searchTokens(argumentText(tool)),
  ];
}

/**
 * How deep a tool's name is: its segments before the action, an item after its collection not counted
 * (`me.messages.message.reply`: 2). The
 * ranking prefers the shallower of two equal matches: the general operation over one nested in it.
 *
 * @param tool The tool.
 * @returns The number of segments before the last.
 */
export function nameDepth(tool: SearchableTool): number {
  const segments = tool.name.split(/[./]/).slice(0, -1);
  // `groups.group.ListGroup`: an item of the collection before it is the same level (a REST path's `/groups/{id}`).
  return segments.filter((segment, i) => i === 0 || stem(segments[i - 1]) !== stem(segment)).length;
}

/**
 * The text of a tool, for an embedder: its name, title, description and argument names.
 *
 * @param tool The tool.
 * @returns One line per part.
 */
export function toolText(tool: SearchableTool): string {
  const parts = [tool.name, tool.title, tool.description, argumentText(tool)];
  return parts.filter((part) => part !== undefined && part !== "").join("\n");
}

/** The top-level argument names, titles and descriptions, as one text. */
function argumentText(tool: SearchableTool): string {
  const properties = (tool.input.jsonSchema as { properties?: unknown }).properties;
  if (!isObject(properties)) return "";
  const parts: string[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    parts.push(name);
    if (!isObject(schema)) continue;
    // A body's schema names what it is (OpenAPI's `title`, e.g. Graph's `group`) where its description may not.
    for (const key of ["title", "description"]) if (typeof schema[key] === "string") parts.push(schema[key]);
  }
  return parts.join(" ");
}
