/**
 * Human-readable output: tool lists, schemas as argument lines, and results as text.
 *
 * @module
 */
import type { CallResult } from "../client/read-result.ts";
import type { ToolInfo } from "../client/transport.ts";
import { typeLabel } from "./arg-values.ts";
import { oneLine } from "./exit-errors.ts";

type Schema = Record<string, unknown>;

/**
 * Lists tools one per line: name, then description, aligned.
 *
 * @param tools The tools.
 * @returns The text (a line saying so when there are none).
 */
export function formatToolList(tools: readonly ToolInfo[]): string {
  if (tools.length === 0) return "(no tools)\n";
  const width = Math.max(...tools.map((t) => t.name.length));
  return tools.map((t) => `${t.name.padEnd(width)}  ${oneLine(t.description ?? "")}`.trimEnd() + "\n").join("");
}

/**
 * Describes a tool in full: description, arguments (name, type, required or default, description)
 * and result schema.
 *
 * @param tool The tool.
 * @returns The text, indented by two spaces.
 */
export function formatTool(tool: ToolInfo): string {
  const lines = [`  ${tool.name}${tool["@type"] ? ` [${tool["@type"]}]` : ""}`];
  if (tool.description) lines.push(`    ${oneLine(tool.description)}`);
  lines.push(...schemaLines("input", tool.inputSchema));
  if (tool.outputSchema !== undefined) lines.push(...schemaLines("output", tool.outputSchema));
  return lines.join("\n") + "\n";
}

function schemaLines(label: string, schema: unknown): string[] {
  const s = (schema ?? {}) as Schema;
  const properties = s.properties as Record<string, Schema> | undefined;
  if (s.type !== "object" || typeof properties !== "object" || properties === null) {
    return [`    ${label}: ${JSON.stringify(schema)}`];
  }
  const keys = Object.keys(properties);
  if (keys.length === 0) return [`    ${label}: (none)`];
  const required = new Set(Array.isArray(s.required) ? s.required as string[] : []);
  const width = Math.max(...keys.map((k) => k.length));
  return [
    `    ${label}:`,
    ...keys.map((key) => {
      const p = properties[key];
      const notes = [typeLabel(p)];
      notes.push(...constraintsOf(p));
      if (Array.isArray(p.enum)) notes.push(`one of ${p.enum.map((e) => JSON.stringify(e)).join(", ")}`);
      if ("default" in p) notes.push(`default ${JSON.stringify(p.default)}`);
      else if (required.has(key)) notes.push("required");
      const description = typeof p.description === "string" ? `  ${oneLine(p.description)}` : "";
      return `      ${key.padEnd(width)}  ${notes.join(", ")}${description}`;
    }),
  ];
}

/** The JSON Schema validation keywords (2020-12, Validation §6) shown beside an argument's type. */
const CONSTRAINTS = [
  "minimum",
  "exclusiveMinimum",
  "maximum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "uniqueItems",
  "const",
] as const;

function constraintsOf(schema: Schema): string[] {
  return CONSTRAINTS.filter((key) => schema[key] !== undefined).map((key) => {
    const value = schema[key];
    return `${key} ${typeof value === "string" && key !== "const" ? value : JSON.stringify(value)}`;
  });
}

/**
 * Renders a tool result for a person: the structured result as indented JSON, else the content
 * blocks (text as it is, other blocks as a one-line note).
 *
 * @param result The result.
 * @returns The text, ending with a newline.
 */
export function formatResult(result: CallResult): string {
  if (result.structuredContent !== undefined && result.isError !== true) {
    return JSON.stringify(result.structuredContent, null, 2) + "\n";
  }
  const text = (result.content ?? []).map((block) => {
    switch (block.type) {
      case "text":
        return block.text;
      case "image":
      case "audio":
        return `[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`;
      case "resource_link":
        return `[resource ${block.uri}${block.name ? ` ${block.name}` : ""}]`;
      case "resource":
        return "text" in block.resource ? String(block.resource.text) : `[resource ${block.resource.uri}]`;
      default:
        return JSON.stringify(block);
    }
  }).join("\n");
  return text.endsWith("\n") || text === "" ? text : text + "\n";
}
