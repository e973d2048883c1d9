/**
 * Turning `--args '{…}'` and `--arg key=value` into a tool's arguments: each value is read as its
 * property's JSON Schema type says (JSON Schema Validation §6.1.1 `type`), so `--arg limit=3` sends
 * the number 3 and `--arg query=3` the string "3". Terminal answers to elicitation forms are read the
 * same way.
 *
 * @module
 */
import type { ToolInfo } from "../client/transport.ts";
import { UsageError } from "./exit-errors.ts";

type Schema = Record<string, unknown>;

/**
 * Builds a call's arguments from `--args` and `--arg`, checked against the tool's input schema.
 *
 * @param tool The tool, as listed.
 * @param argsJson The `--args` JSON object, if given.
 * @param pairs The `--arg key=value` strings, applied over it in order.
 * @returns The arguments.
 * @throws {UsageError} For JSON that is not an object, a pair without `=`, an unknown key or a value its type cannot read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { argumentsFor } from "./arg-values.ts";
 * const tool = {
 *   name: "search",
 *   inputSchema: { type: "object", properties: { query: { type: "string" }, limit: { type: "integer" } } },
 * };
 * assert.deepEqual(argumentsFor(tool, undefined, ["query=42", "limit=3"]), { query: "42", limit: 3 });
 * assert.throws(() => argumentsFor(tool, undefined, ["limit=many"]), /limit/);
 * ```
 */
export function argumentsFor(tool: ToolInfo, argsJson: string | undefined, pairs: string[]): Record<string, unknown> {
  const args: Record<string, unknown> = argsJson === undefined ? {} : objectFromJson(argsJson);
  const properties = propertiesOf(tool.inputSchema);
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`--arg takes key=value, not ${JSON.stringify(pair)}`);
    const key = pair.slice(0, eq);
    const schema = properties?.[key];
    if (properties !== undefined && schema === undefined && !allowsExtra(tool.inputSchema)) {
      const known = Object.keys(properties);
      throw new UsageError(
        `${tool.name} has no argument ${JSON.stringify(key)}` +
          (known.length ? ` (it takes ${known.join(", ")})` : " (it takes none)"),
      );
    }
    args[key] = valueFor(schema, pair.slice(eq + 1), key);
  }
  return args;
}

/**
 * Reads one value as its schema's type says: numbers, integers, booleans, `null`, JSON arrays and
 * objects; a string stays as typed. A schema allowing several types (or none) takes the first reading
 * that works, trying JSON before the plain string.
 *
 * @param schema The property's JSON Schema (or `undefined`: any JSON value, else a string).
 * @param text The text typed.
 * @param label The argument's name, for messages.
 * @returns The value.
 * @throws {UsageError} When the text is not a value of the type.
 */
export function valueFor(schema: unknown, text: string, label: string): unknown {
  const types = typesOf(schema);
  const errors: string[] = [];
  for (const type of types) {
    const read = readAs(type, text);
    if (read.ok) return checkEnum(schema, read.value, label);
    errors.push(read.expected);
  }
  throw new UsageError(`${label}: ${JSON.stringify(text)} is not ${errors.join(" or ")}`);
}

/**
 * Names the types a schema allows, for prompts and help.
 *
 * @param schema The JSON Schema.
 * @returns E.g. `integer`, `string | null`, or `any`.
 */
export function typeLabel(schema: unknown): string {
  const types = typesOf(schema);
  return types.length === 2 && types[0] === "json" ? "any" : types.join(" | ");
}

function objectFromJson(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--args is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError('--args must be a JSON object, e.g. \'{"query": "mcp"}\'');
  }
  return value as Record<string, unknown>;
}

function propertiesOf(schema: unknown): Record<string, unknown> | undefined {
  const properties = (schema as Schema | undefined)?.properties;
  return typeof properties === "object" && properties !== null ? properties as Record<string, unknown> : undefined;
}

function allowsExtra(schema: unknown): boolean {
  const extra = (schema as Schema | undefined)?.additionalProperties;
  return extra !== undefined && extra !== false;
}

/** The types to try, in order: those the schema names (or its `anyOf`/`oneOf` branches name), else JSON then string. */
function typesOf(schema: unknown): string[] {
  if (typeof schema !== "object" || schema === null) return ["json", "string"];
  const s = schema as Schema;
  if (typeof s.type === "string") return [s.type];
  if (Array.isArray(s.type)) return orderTypes(s.type.filter((t): t is string => typeof t === "string"));
  const branches = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (branches) return orderTypes([...new Set(branches.flatMap(typesOf))]);
  if (Array.isArray(s.enum) && s.enum.every((e) => typeof e === "string")) return ["string"];
  if (typeof s.const === "string") return ["string"];
  return ["json", "string"];
}

/** Tries strings last, so `--arg n=3` for `number | string` gives the number. */
function orderTypes(types: string[]): string[] {
  return [...types.filter((t) => t !== "string"), ...types.filter((t) => t === "string")];
}

type Reading = { ok: true; value: unknown } | { ok: false; expected: string };

function readAs(type: string, text: string): Reading {
  const trimmed = text.trim();
  switch (type) {
    case "string":
      return { ok: true, value: text };
    case "number":
    case "integer": {
      const n = trimmed === "" ? NaN : Number(trimmed);
      if (!Number.isFinite(n)) return { ok: false, expected: type === "integer" ? "an integer" : "a number" };
      if (type === "integer" && !Number.isInteger(n)) return { ok: false, expected: "an integer" };
      return { ok: true, value: n };
    }
    case "boolean":
      if (trimmed === "true") return { ok: true, value: true };
      if (trimmed === "false") return { ok: true, value: false };
      return { ok: false, expected: "a boolean (true or false)" };
    case "null":
      return trimmed === "null" ? { ok: true, value: null } : { ok: false, expected: "null" };
    case "array":
    case "object": {
      const parsed = parseJson(trimmed);
      const fits = type === "array"
        ? Array.isArray(parsed)
        : typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
      return fits ? { ok: true, value: parsed } : { ok: false, expected: `a JSON ${type}` };
    }
    default: {
      const parsed = parseJson(trimmed);
      return parsed === undefined ? { ok: false, expected: "JSON" } : { ok: true, value: parsed };
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function checkEnum(schema: unknown, value: unknown, label: string): unknown {
  const allowed = (schema as Schema | undefined)?.enum;
  if (!Array.isArray(allowed) || allowed.some((a) => a === value)) return value;
  throw new UsageError(
    `${label}: ${JSON.stringify(value)} is not one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}`,
  );
}
