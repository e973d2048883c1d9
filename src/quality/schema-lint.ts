/**
 * The lint of a tool list as a model reads it: names (MCP 2025-11-25, Tools, "Tool names"), descriptions, and the
 * input and output schemas' arguments (JSON Schema 2020-12), each finding with the tool, the JSON Pointer of the part
 * and a fix.
 *
 * @module
 */
import type { ToolInfo } from "../client/transport.ts";
import { isObject } from "../internal/is-object.ts";
import type { ToolFinding } from "./check-report.ts";
import { listedValues } from "./fixed-set.ts";

type Schema = Record<string, unknown>;

/** Adds a finding about the tool being linted. */
type Add = (finding: Omit<ToolFinding, "tool">) => void;

/** Where the walk of a tool's schema is: the schema its references point into, how deep, and where findings go. */
interface Walk {
  readonly root: Schema;
  readonly depth: number;
  readonly add: Add;
}

/** MCP 2025-11-25, Tools, "Tool names": 1 to 128 of ASCII letters, digits, `_`, `-` and `.`. */
const MCP_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** The names model APIs take (OpenAI's functions: `^[a-zA-Z0-9_-]{1,64}$`; Anthropic's tools allow 128, no dot either). */
const MODEL_API_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Keywords that give a schema its type without `type` (a reference, a combination, a constant, a set). */
const TYPED_BY = ["$ref", "anyOf", "oneOf", "allOf", "enum", "const", "not", "if"];

/** How deep the lint walks nested schemas: deeper ones are the body of an imported API, and repeat what is above. */
const MAX_DEPTH = 4;

/**
 * Lints a tool list.
 *
 * @param tools The tools, as listed.
 * @returns The findings, in list order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lintTools } from "./schema-lint.ts";
 * const [finding] = lintTools([{
 *   name: "list_issues",
 *   description: "Lists the issues of a repository.",
 *   inputSchema: { type: "object", properties: { state: { type: "string", description: '"open" or "closed"' } }, required: [] },
 * }]);
 * assert.equal(finding.rule, "fixed-set");
 * assert.equal(finding.path, "/inputSchema/properties/state");
 * ```
 */
export function lintTools(tools: readonly ToolInfo[]): ToolFinding[] {
  const findings: ToolFinding[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    const add: Add = (finding) => findings.push({ ...finding, tool: tool.name });
    lintName(tool.name, seen, add);
    lintDescription(tool, add);
    const input = tool.inputSchema as unknown;
    if (!isObject(input) || input.type !== "object") {
      add({
        severity: "error",
        rule: "input-schema",
        path: "/inputSchema",
        message: 'the input schema is not an object schema: MCP requires `type: "object"` at its root',
        fix: "wrap the arguments in an object schema",
      });
    } else {
      lintObject(input, "/inputSchema", { root: input, depth: 0, add });
    }
    const output = tool.outputSchema as unknown;
    if (output !== undefined && (!isObject(output) || output.type !== "object")) {
      add({
        severity: "error",
        rule: "output-schema",
        path: "/outputSchema",
        message: 'the output schema is not an object schema: MCP requires `type: "object"` at its root',
        fix: "give structured content an object at its root (a list goes in a property)",
      });
    }
  }
  return findings;
}

/** Checks a name against MCP's rules and the model APIs'. */
function lintName(name: string, seen: Set<string>, add: Add): void {
  if (seen.has(name)) {
    add({
      severity: "error",
      rule: "duplicate-name",
      path: "/name",
      message: "another tool has this name: a call reaches one of them",
      fix: "give each tool a name of its own",
    });
  }
  seen.add(name);
  if (!MCP_NAME.test(name)) {
    add({
      severity: "error",
      rule: "tool-name",
      path: "/name",
      message: "the name breaks MCP's tool-name rules: 1 to 128 of A-Z a-z 0-9 _ - .",
      fix: "rename it with those characters only",
    });
  } else if (!MODEL_API_NAME.test(name)) {
    add({
      severity: "info",
      rule: "tool-name",
      path: "/name",
      message: name.length > 64
        ? "the name is longer than the 64 characters OpenAI's function names take: hosts cut or refuse it"
        : "model APIs take no dot in a tool name: hosts rewrite it, and the model sees another name",
      fix: "use 1 to 64 of A-Z a-z 0-9 _ -",
    });
  }
}

/** Checks a tool's description: present, and more than one word. */
function lintDescription(tool: ToolInfo, add: Add): void {
  const text = (tool.description ?? "").trim();
  const words = text.split(/\s+/).filter(Boolean).length;
  if (words > 1) return;
  add({
    severity: "warning",
    rule: "description",
    path: "/description",
    message: words === 0
      ? "the tool has no description: a model picks it by its name alone"
      : `the description is one word (${JSON.stringify(text)}): it tells a model nothing its name does not`,
    fix: "say what it does, on what, and when to use it rather than its neighbours",
  });
}

/** Lints an object schema's properties and its `required`, then the schemas nested in them. */
function lintObject(schema: Schema, path: string, walk: Walk): void {
  const { root, depth, add } = walk;
  const properties = schema.properties;
  if (!isObject(properties)) return;
  const names = Object.keys(properties);
  const required = Array.isArray(schema.required) ? schema.required as unknown[] : undefined;
  if (names.length > 0 && required === undefined) {
    add({
      severity: "info",
      rule: "required",
      path,
      message: "the schema does not say which arguments are required: a model guesses",
      fix: "list the required ones in `required` (`required: []` when none is)",
    });
  }
  for (const name of names) {
    const property = properties[name];
    const at = `${path}/properties/${pointerToken(name)}`;
    if (!isObject(property)) continue;
    const target = resolved(property, root);
    const description = stringOf(property.description) ?? stringOf(target.description) ??
      stringOf(property.title) ?? stringOf(target.title);
    if (description === undefined || description.trim() === "") {
      add({
        severity: "warning",
        rule: "parameter-description",
        path: at,
        message: `the argument ${JSON.stringify(name)} has no description: a model fills it from its name alone`,
        fix: "describe what it takes, its format and an example",
      });
    }
    if (!("type" in target) && !TYPED_BY.some((keyword) => keyword in target)) {
      add({
        severity: "warning",
        rule: "parameter-type",
        path: at,
        message: `the argument ${JSON.stringify(name)} has no type: any JSON value is valid`,
        fix: "give it a `type` (string, number, integer, boolean, array or object)",
      });
    }
    if (
      description !== undefined && /\(required\)|\brequired\.?$/i.test(description.trim()) &&
      required !== undefined && !required.includes(name)
    ) {
      add({
        severity: "warning",
        rule: "required",
        path: at,
        message: `the description of ${JSON.stringify(name)} says it is required, but \`required\` does not list it`,
        fix: `add ${JSON.stringify(name)} to \`required\``,
      });
    }
    lintValues(target, description, at, name, add);
    if (depth + 1 < MAX_DEPTH) nested(target, at, { root, depth: depth + 1, add });
  }
}

/** Lints the schemas an argument holds: an object's properties, an array's items. */
function nested(schema: Schema, path: string, walk: Walk): void {
  if (isObject(schema.properties)) lintObject(schema, path, walk);
  const items = schema.items;
  if (isObject(items)) {
    const target = resolved(items, walk.root);
    lintValues(target, stringOf(target.description), `${path}/items`, "items", walk.add);
    if (isObject(target.properties)) lintObject(target, `${path}/items`, walk);
  }
}

/** A string whose description lists its values, without an `enum`. */
function lintValues(
  schema: Schema,
  description: string | undefined,
  path: string,
  name: string,
  add: Add,
): void {
  const typed = schema.type === "string" || (Array.isArray(schema.type) && schema.type.includes("string"));
  if (!typed || "enum" in schema || "const" in schema || description === undefined) return;
  const values = listedValues(description);
  if (values === undefined) return;
  add({
    severity: "warning",
    rule: "fixed-set",
    path,
    message: `${JSON.stringify(name)} takes a fixed set its description lists (${
      values.join(", ")
    }), without an \`enum\``,
    fix: `add \`enum: ${JSON.stringify(values)}\` (a model then cannot send another value)`,
  });
}

/** The schema a local `$ref` (`#/$defs/…`, `#/definitions/…`) points at, or the schema itself. */
function resolved(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return schema;
  let target: unknown = root;
  for (const token of ref.slice(2).split("/")) {
    if (!isObject(target)) return schema;
    target = target[token.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return isObject(target) ? target : schema;
}

/**
 * A JSON Pointer token (RFC 6901 §3): `~` and `/` escaped.
 *
 * @param name A property's name.
 * @returns The token.
 */
export function pointerToken(name: string): string {
  return name.replaceAll("~", "~0").replaceAll("/", "~1");
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
