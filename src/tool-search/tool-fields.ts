/**
 * What tool search reads of a tool: its name, its description (with its title), and its arguments'
 * names and descriptions (the top-level properties of its input schema, MCP 2025-11-25, Tools,
 * `inputSchema`), as terms per field.
 *
 * @module
 */
import type { AnyTool } from "../core/tool.ts";
import { isObject } from "../internal/is-object.ts";
import { searchTokens } from "./search-tokens.ts";

/** The fields a tool is searched by, in the order of {@link toolFields}' terms. */
export const FIELDS = ["name", "description", "arguments"] as const;

/** A tool's terms, one list per field of {@link FIELDS}. */
export type FieldTerms = readonly (readonly string[])[];

/**
 * A tool's search terms per field.
 *
 * @param tool The tool.
 * @returns Its terms: name, description (and title), arguments (names and descriptions).
 */
export function toolFields(tool: AnyTool): FieldTerms {
  const description = [tool.title, tool.description].filter((text) => text !== undefined).join(" ");
  return [searchTokens(tool.name), searchTokens(description), searchTokens(argumentText(tool))];
}

/**
 * The text of a tool, for an embedder: its name, title, description and argument names.
 *
 * @param tool The tool.
 * @returns One line per part.
 */
export function toolText(tool: AnyTool): string {
  const parts = [tool.name, tool.title, tool.description, argumentText(tool)];
  return parts.filter((part) => part !== undefined && part !== "").join("\n");
}

/** The top-level argument names and their descriptions, as one text. */
function argumentText(tool: AnyTool): string {
  const properties = (tool.input.jsonSchema as { properties?: unknown }).properties;
  if (!isObject(properties)) return "";
  const parts: string[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    parts.push(name);
    if (isObject(schema) && typeof schema.description === "string") parts.push(schema.description);
  }
  return parts.join(" ");
}
