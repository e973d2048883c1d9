/**
 * `x-mcp-header` (MCP SEP-2243): a tool input property may ask to be mirrored as an HTTP header
 * `Mcp-Param-{Name}`, so that gateways can route on it without reading the body. Declared with valibot
 * metadata (`v.pipe(v.string(), v.metadata({ "x-mcp-header": "Region" }))`), it flows into the JSON
 * Schema; this module checks the declarations once, when the tool is defined.
 *
 * @module
 */
import type { JsonSchema } from "./schema.ts";

/** The schema keyword. */
export const X_MCP_HEADER = "x-mcp-header";

/** One property mirrored as a header. */
export interface ParamHeader {
  /** The property path from the schema root, through `properties` only. */
  readonly path: readonly string[];
  /** The header suffix as declared (`Region` → `Mcp-Param-Region`). */
  readonly name: string;
  /** The property's JSON type. */
  readonly type: "string" | "integer" | "boolean";
}

/** RFC 9110 `token`: no spaces, delimiters, controls or non-ASCII. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TYPES = new Set(["string", "integer", "boolean"]);
/** Keywords whose subschemas are not statically reachable through `properties`. */
const UNREACHABLE = [
  "items",
  "prefixItems",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
  "patternProperties",
  "dependentSchemas",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "$defs",
  "definitions",
];
const MAPS = new Set(["patternProperties", "dependentSchemas", "$defs", "definitions"]);

/**
 * Collects and checks the `x-mcp-header` declarations of an input schema. A value must be a
 * non-empty RFC 9110 token, unique (case-insensitively) within the tool, on a `string`, `integer` or
 * `boolean` property reached from the root through `properties` only.
 *
 * @param schema The tool's input JSON Schema.
 * @param where Names the tool in errors.
 * @returns The declarations, in schema order (empty when there are none).
 * @throws {TypeError} When a declaration breaks one of the rules; the message names the property.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { paramHeadersOf } from "./param-headers.ts";
 * const schema = { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } };
 * assert.deepEqual(paramHeadersOf(schema, "tool"), [{ path: ["region"], name: "Region", type: "string" }]);
 * ```
 */
export function paramHeadersOf(schema: JsonSchema, where: string): readonly ParamHeader[] {
  const found: ParamHeader[] = [];
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: string[], reachable: boolean): void => {
    if (typeof node !== "object" || node === null) return;
    const s = node as Record<string, unknown>;
    if (X_MCP_HEADER in s) {
      const at = path.length === 0 ? "the root" : `property "${path.join(".")}"`;
      if (!reachable || path.length === 0) {
        throw new TypeError(
          `${where}: x-mcp-header on ${at} is not allowed: only on properties reached through "properties" ` +
            `(not under items, additionalProperties, oneOf/anyOf/allOf/not, if/then/else or $defs)`,
        );
      }
      const name = s[X_MCP_HEADER];
      if (typeof name !== "string" || !TOKEN.test(name)) {
        throw new TypeError(
          `${where}: x-mcp-header ${JSON.stringify(name)} on ${at} must be a non-empty HTTP token ` +
            `(letters, digits and !#$%&'*+-.^_\`|~; no spaces, colons or non-ASCII)`,
        );
      }
      if (typeof s.type !== "string" || !TYPES.has(s.type)) {
        throw new TypeError(
          `${where}: x-mcp-header on ${at} needs a string, integer or boolean property (got ${JSON.stringify(s.type)})`,
        );
      }
      const prior = seen.get(name.toLowerCase());
      if (prior !== undefined) {
        throw new TypeError(`${where}: x-mcp-header "${name}" on ${at} repeats "${prior}" (names are case-insensitive)`);
      }
      seen.set(name.toLowerCase(), name);
      found.push(Object.freeze({ path: Object.freeze([...path]), name, type: s.type as ParamHeader["type"] }));
    }
    const properties = s.properties;
    if (typeof properties === "object" && properties !== null) {
      for (const [key, child] of Object.entries(properties)) visit(child, [...path, key], reachable);
    }
    for (const keyword of UNREACHABLE) {
      const sub = s[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub)
        ? sub
        : MAPS.has(keyword) && typeof sub === "object" && sub !== null
        ? Object.values(sub)
        : [sub];
      for (const branch of branches) visit(branch, [...path, `<${keyword}>`], false);
    }
  };
  visit(schema, [], true);
  return Object.freeze(found);
}
