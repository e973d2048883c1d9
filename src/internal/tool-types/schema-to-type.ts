/**
 * JSON Schema (2020-12 and draft-07, as servers emit it; OpenAPI 3.0's `nullable`) to a TypeScript type:
 * objects, arrays and tuples, `enum`/`const`, `anyOf`/`oneOf`/`allOf`, and `$ref` into `$defs` or
 * `definitions` as named aliases (so recursive schemas stay finite). What TypeScript cannot say
 * (formats, bounds, patterns) widens to the base type.
 *
 * @module
 */
import { isObject } from "../is-object.ts";
import type { PropertyNode, TypeNode } from "./print-type.ts";

type Schema = Record<string, unknown>;

/** Gives the alias name for a `$ref` of a root schema (registering the alias to write). */
export type AliasOf = (root: unknown, pointer: string) => string | undefined;

const UNKNOWN: TypeNode = { kind: "keyword", name: "unknown" };
const NEVER: TypeNode = { kind: "keyword", name: "never" };
const NULL: TypeNode = { kind: "keyword", name: "null" };

/** How a JSON Schema `type` reads in TypeScript (`object` and `array` are built from their keywords). */
const KEYWORDS: Record<string, TypeNode> = {
  string: { kind: "keyword", name: "string" },
  number: { kind: "keyword", name: "number" },
  integer: { kind: "keyword", name: "number" },
  boolean: { kind: "keyword", name: "boolean" },
  null: NULL,
};

/**
 * The TypeScript type of a schema.
 *
 * @param schema The schema (a subschema of `root`).
 * @param root The document its `$ref`s point into.
 * @param aliasOf Names the alias of a `$ref`.
 * @returns The type.
 */
export function schemaType(schema: unknown, root: unknown, aliasOf: AliasOf): TypeNode {
  if (schema === true) return UNKNOWN;
  if (schema === false) return NEVER;
  if (!isObject(schema)) return UNKNOWN;
  const type = baseType(schema, root, aliasOf);
  // OpenAPI 3.0 Schema Object, `nullable`.
  return schema.nullable === true ? union([type, NULL]) : type;
}

function baseType(schema: Schema, root: unknown, aliasOf: AliasOf): TypeNode {
  const sub = (s: unknown) => schemaType(s, root, aliasOf);
  if (typeof schema.$ref === "string") {
    const name = aliasOf(root, schema.$ref);
    return name === undefined ? UNKNOWN : { kind: "ref", name };
  }
  if ("const" in schema) return literalType(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literalType));
  const parts: TypeNode[] = [];
  for (const key of ["anyOf", "oneOf"] as const) {
    const list = schema[key];
    if (Array.isArray(list) && list.length > 0) parts.push(union(list.map(sub)));
  }
  if (Array.isArray(schema.allOf)) parts.push(...schema.allOf.map(sub));
  const own = ownType(schema, sub);
  // A bare `type: "object"` beside `anyOf`/`oneOf`/`allOf` says no more than its parts do.
  if (own !== undefined && !(parts.length > 0 && isAnyObject(own))) parts.unshift(own);
  return intersection(parts);
}

/** The type the schema's own `type` (or, without one, its object or array keywords) says. */
function ownType(schema: Schema, sub: (s: unknown) => TypeNode): TypeNode | undefined {
  const declared = Array.isArray(schema.type) ? schema.type : typeof schema.type === "string" ? [schema.type] : [];
  const types = declared.length > 0
    ? declared.filter((t): t is string => typeof t === "string")
    : isObject(schema.properties) || "additionalProperties" in schema || isObject(schema.patternProperties)
    ? ["object"]
    : "items" in schema || Array.isArray(schema.prefixItems)
    ? ["array"]
    : [];
  if (types.length === 0) return undefined;
  return union(
    types.map((type) =>
      type === "object"
        ? objectType(schema, sub)
        : type === "array"
        ? arrayType(schema, sub)
        : KEYWORDS[type] ?? UNKNOWN
    ),
  );
}

function objectType(schema: Schema, sub: (s: unknown) => TypeNode): TypeNode {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const properties: PropertyNode[] = Object.entries(isObject(schema.properties) ? schema.properties : {}).map((
    [name, property],
  ) => ({ name, optional: !required.has(name), type: sub(property), doc: docLines(property) }));
  const extra: TypeNode[] = [];
  const additional = schema.additionalProperties;
  if (additional !== undefined && additional !== false) extra.push(sub(additional));
  if (isObject(schema.patternProperties)) extra.push(...Object.values(schema.patternProperties).map(sub));
  // No `additionalProperties`: an object that lists its properties is the shape they say (what its author
  // meant, and what catches a misspelt key); one that lists none is a map of anything.
  if (additional === undefined && extra.length === 0 && !isObject(schema.properties)) extra.push(UNKNOWN);
  if (extra.length === 0) {
    // No property at all (`{}` would admit any value but null).
    return properties.length > 0 ? { kind: "object", properties } : { kind: "object", properties, index: NEVER };
  }
  // An index signature must admit every property's type too, and `undefined` for an optional one (TS2411 under
  // strictNullChecks: GitHub's `permissions: { checks?: string; [key: string]: string }`).
  const optional: TypeNode[] = properties.some((p) => p.optional) ? [{ kind: "keyword", name: "undefined" }] : [];
  const index = union([...extra, ...properties.map((property) => property.type), ...optional]);
  return { kind: "object", properties, index: index.kind === "keyword" && index.name === "never" ? UNKNOWN : index };
}

function arrayType(schema: Schema, sub: (s: unknown) => TypeNode): TypeNode {
  // 2020-12 `prefixItems` with `items` for the rest; draft-07 `items: [...]` with `additionalItems`.
  const prefix = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
    ? schema.items
    : [];
  if (prefix.length === 0) return { kind: "array", items: "items" in schema ? sub(schema.items) : UNKNOWN };
  const restSchema = Array.isArray(schema.prefixItems) ? schema.items : schema.additionalItems;
  const minItems = typeof schema.minItems === "number" ? schema.minItems : prefix.length;
  const closed = restSchema === false || typeof schema.maxItems === "number" && schema.maxItems <= prefix.length;
  return {
    kind: "tuple",
    items: prefix.map(sub),
    optionalFrom: Math.min(minItems, prefix.length),
    ...(closed ? {} : { rest: restSchema === undefined ? UNKNOWN : sub(restSchema) }),
  };
}

/** The JSDoc of a schema: its description (or title), its default, whether it is deprecated. */
export function docLines(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  const lines: string[] = [];
  const text = typeof schema.description === "string" ? schema.description : schema.title;
  if (typeof text === "string" && text.trim() !== "") lines.push(text.trim());
  const fallback = schema.default === undefined ? undefined : JSON.stringify(schema.default);
  if (fallback !== undefined && fallback.length <= 60) lines.push(`@default ${fallback}`);
  if (schema.deprecated === true) lines.push("@deprecated");
  return lines;
}

function literalType(value: unknown): TypeNode {
  if (value === null) return NULL;
  if (typeof value === "string" || typeof value === "boolean") return { kind: "literal", value };
  if (typeof value === "number" && Number.isFinite(value)) return { kind: "literal", value };
  return UNKNOWN;
}

/** A union, flattened and without repeats; `unknown` absorbs it, `never` drops out. */
export function union(members: TypeNode[]): TypeNode {
  const flat = members.flatMap((member) => member.kind === "union" ? member.members : [member]);
  if (flat.some(isUnknown)) return UNKNOWN;
  const unique = dedupe(flat.filter((member) => !(member.kind === "keyword" && member.name === "never")));
  return unique.length === 0 ? NEVER : unique.length === 1 ? unique[0] : { kind: "union", members: unique };
}

/** An intersection, flattened and without repeats; `unknown` drops out. */
function intersection(members: TypeNode[]): TypeNode {
  const flat = members.flatMap((member) => member.kind === "intersection" ? member.members : [member]);
  const unique = dedupe(flat.filter((member) => !isUnknown(member)));
  return unique.length === 0 ? UNKNOWN : unique.length === 1 ? unique[0] : { kind: "intersection", members: unique };
}

/** `Record<string, unknown>`: what a bare `type: "object"` gives. */
function isAnyObject(node: TypeNode): boolean {
  return node.kind === "object" && node.properties.length === 0 && node.index !== undefined && isUnknown(node.index);
}

function isUnknown(node: TypeNode): boolean {
  return node.kind === "keyword" && node.name === "unknown";
}

function dedupe(nodes: TypeNode[]): TypeNode[] {
  const seen = new Set<string>();
  return nodes.filter((node) => {
    const key = JSON.stringify(node);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
