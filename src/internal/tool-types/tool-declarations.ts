/**
 * The TypeScript declarations of a list of tools: each tool's input and output type from its `inputSchema` and
 * `outputSchema` (MCP 2025-11-25, Tools), and the `$defs` they share as named aliases (equal definitions share one,
 * recursive ones stay finite), written `deno fmt`-clean. What `mcplite types` writes into its module and what code
 * mode's discovery answers the model are both made here.
 *
 * @module
 */
import { canonicalJson } from "../canonical-json.ts";
import { isObject } from "../is-object.ts";
import { jsDoc, LINE_WIDTH, printObject, printType, type TypeNode } from "./print-type.ts";
import { docLines, schemaType } from "./schema-to-type.ts";

/** What a tool's declarations are made from: its name, description and schemas, as `tools/list` gives them. */
export interface ToolSchemas {
  /** Its name. */
  readonly name: string;
  /** Its description. */
  readonly description?: string;
  /** Its title. */
  readonly title?: string;
  /** Its input's JSON Schema. */
  readonly inputSchema?: unknown;
  /** Its output's JSON Schema (its `structuredContent`), if it declares one. */
  readonly outputSchema?: unknown;
}

/** A tool's declared types: the names of its input and output types. */
export interface DeclaredTool<T extends ToolSchemas> {
  /** The tool. */
  readonly tool: T;
  /** The name of its input's type. */
  readonly input: string;
  /** The name of its output's type, when it declares one. */
  readonly output: string | undefined;
}

/** The declarations of a list of tools. */
export interface ToolDeclarations<T extends ToolSchemas> {
  /** Each declaration's text, its JSDoc included: the tools' inputs and outputs, then the aliases they reach. */
  readonly declarations: string[];
  /** The tools, sorted by name, with their types' names. */
  readonly tools: DeclaredTool<T>[];
}

/** An alias being named: the schema it stands for and the root its `$ref`s point into. */
interface Alias {
  name: string;
  schema: unknown;
  root: unknown;
}

/**
 * Writes the declarations of a list of tools.
 *
 * @param tools The tools.
 * @param options Whether the declarations are `export`ed, and names they must not take.
 * @returns The declarations and each tool's types' names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toolDeclarations } from "./tool-declarations.ts";
 * const { declarations, tools } = toolDeclarations([{ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" } } } }]);
 * assert.equal(tools[0].input, "AddInput");
 * assert.match(declarations[0], /^export interface AddInput \{\n {2}a\?: number;\n\}$/m);
 * ```
 */
export function toolDeclarations<T extends ToolSchemas>(
  tools: readonly T[],
  options: { readonly exported?: boolean; readonly reserved?: readonly string[] } = {},
): ToolDeclarations<T> {
  const keyword = options.exported === false ? "" : "export ";
  const sorted = [...tools].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const taken = new Set<string>(["Record", "Array", "Promise", ...options.reserved ?? []]);
  const unique = (base: string): string => {
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    taken.add(name);
    return name;
  };
  const named = sorted.map((tool) => {
    const base = pascalCase(tool.name);
    return { tool, input: unique(`${base}Input`), output: tool.outputSchema ? unique(`${base}Output`) : undefined };
  });

  // `$ref`s become aliases named for the definition; equal definitions (with what they reach) share one.
  const aliases: Alias[] = [];
  const byKey = new Map<string, string>();
  const byRef = new Map<unknown, Map<string, string>>();
  const roots = new Map<unknown, string>();
  const aliasOf = (root: unknown, pointer: string): string | undefined => {
    if (pointer === "#" || pointer === "#/") return roots.get(root);
    const refs = byRef.get(root) ?? new Map<string, string>();
    byRef.set(root, refs);
    const known = refs.get(pointer);
    if (known !== undefined) return known;
    const target = resolvePointer(root, pointer);
    if (target === undefined) return undefined;
    const key = reachKey(root, pointer);
    let name = byKey.get(key);
    if (name === undefined) {
      name = unique(pascalCase(decodeSegment(pointer.split("/").at(-1) ?? "")) || "Definition");
      byKey.set(key, name);
      aliases.push({ name, schema: target, root });
    }
    refs.set(pointer, name);
    return name;
  };

  const declarations: string[] = [];
  for (const { tool, input, output } of named) {
    const inputSchema = tool.inputSchema ?? { type: "object" };
    roots.set(inputSchema, input);
    declarations.push(declaration(keyword, input, schemaType(inputSchema, inputSchema, aliasOf), inputDoc(tool)));
    if (output !== undefined) {
      roots.set(tool.outputSchema, output);
      const type = schemaType(tool.outputSchema, tool.outputSchema, aliasOf);
      const doc = [`What \`${tool.name}\` answers (its \`structuredContent\`).`];
      declarations.push(declaration(keyword, output, type, doc));
    }
  }
  // Aliases found while writing aliases are appended as they are named: write until none is left.
  for (let i = 0; i < aliases.length; i++) {
    const alias = aliases[i];
    const type = schemaType(alias.schema, alias.root, aliasOf);
    declarations.push(declaration(keyword, alias.name, type, docLines(alias.schema)));
  }
  return { declarations, tools: named };
}

function inputDoc(tool: ToolSchemas): string[] {
  const lines = [`The arguments of \`${tool.name}\`.`];
  if (typeof tool.description === "string" && tool.description.trim() !== "") lines.push("", tool.description.trim());
  return lines;
}

/** `interface` for an object type, `type` for the rest. */
function declaration(keyword: string, name: string, type: TypeNode, doc: string[]): string {
  const comment = jsDoc(doc, "");
  if (type.kind === "object" && type.properties.length > 0) {
    return `${comment}${keyword}interface ${name} ${printObject(type, "", LINE_WIDTH)}`;
  }
  const head = `${keyword}type ${name} = `;
  const body = printType(type, "", head.length);
  return `${comment}${head.trimEnd()}${body.startsWith("\n") ? "" : " "}${body};`;
}

/**
 * A type name from a tool or definition name: `issues_list-for-repo` is `IssuesListForRepo`,
 * `get.user` is `GetUser`; one that would start with a digit is prefixed with `T`.
 *
 * @param name The name.
 * @returns The type name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pascalCase } from "./tool-declarations.ts";
 * assert.equal(pascalCase("issues_list-for-repo"), "IssuesListForRepo");
 * ```
 */
export function pascalCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((word) => word !== "");
  const joined = words.map((word) => word[0].toUpperCase() + word.slice(1)).join("");
  return /^[0-9]/.test(joined) ? `T${joined}` : joined;
}

function decodeSegment(segment: string): string {
  return decodeURIComponent(segment).replaceAll("~1", "/").replaceAll("~0", "~");
}

/** The subschema a local JSON Pointer (`#/$defs/Node`, RFC 6901) names, or `undefined`. */
function resolvePointer(root: unknown, pointer: string): unknown {
  if (!pointer.startsWith("#/")) return undefined;
  let at = root;
  for (const segment of pointer.slice(2).split("/").map(decodeSegment)) {
    if (Array.isArray(at)) at = at[Number(segment)];
    else if (isObject(at) && Object.hasOwn(at, segment)) at = at[segment];
    else return undefined;
  }
  return at;
}

/** What makes two definitions the same: each and every definition it reaches, by pointer. */
function reachKey(root: unknown, start: string): string {
  const reached = new Map<string, unknown>();
  const visit = (pointer: string): void => {
    if (reached.has(pointer)) return;
    const schema = resolvePointer(root, pointer);
    reached.set(pointer, schema ?? null);
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (isObject(value)) {
        if (typeof value.$ref === "string" && value.$ref.startsWith("#/")) visit(value.$ref);
        Object.values(value).forEach(walk);
      }
    };
    walk(schema);
  };
  visit(start);
  return canonicalJson([start.split("/").at(-1), [...reached].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)]);
}
