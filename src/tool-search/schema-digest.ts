/**
 * A large input schema, cut down for a search answer: the same shape to a given depth, with what a
 * model needs to write arguments (types, descriptions, short enums, required names), and without
 * what only a validator needs (discriminator mappings, definitions). Microsoft Graph's body schemas
 * run to hundreds of kilobytes; `call_tool` still validates against the whole schema.
 *
 * @module
 */
import { isObject } from "../internal/is-object.ts";

/** The keys kept as they are. */
const KEPT = ["type", "description", "format", "required", "default", "const", "nullable"];
/** The keys whose values are schemas (or lists of them), kept one level shallower. */
const NESTED = ["items", "additionalProperties"];
const ALTERNATIVES = ["anyOf", "oneOf", "allOf"];

/**
 * The schema as it goes in a search answer: whole when its JSON fits in `maxBytes`, else cut to the
 * deepest depth that fits (at least its top-level properties' types and descriptions), marked with
 * `x-digest: true`.
 *
 * @param schema A JSON Schema object.
 * @param maxBytes The most characters of JSON it may take.
 * @returns The schema, or its digest.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { schemaDigest } from "./schema-digest.ts";
 * const big = { type: "object", properties: { body: { type: "object", discriminator: { mapping: { a: "x".repeat(500) } } } } };
 * assert.deepEqual(schemaDigest(big, 200), { type: "object", properties: { body: { type: "object" } }, "x-digest": true });
 * ```
 */
export function schemaDigest(schema: Record<string, unknown>, maxBytes: number): Record<string, unknown> {
  if (JSON.stringify(schema).length <= maxBytes) return schema;
  for (let depth = 4; depth > 1; depth--) {
    const digest = { ...cut(schema, depth), "x-digest": true };
    if (JSON.stringify(digest).length <= maxBytes) return digest;
  }
  return { ...cut(schema, 1), "x-digest": true };
}

/** A schema to `depth` levels of properties, items and alternatives. */
function cut(schema: Record<string, unknown>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of KEPT) if (schema[key] !== undefined) out[key] = schema[key];
  if (Array.isArray(schema.enum) && schema.enum.length <= 20) out.enum = schema.enum;
  if (depth <= 0) return out;
  if (isObject(schema.properties)) {
    const properties: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      properties[name] = isObject(property) ? cut(property, depth - 1) : property;
    }
    out.properties = properties;
  }
  for (const key of NESTED) if (isObject(schema[key])) out[key] = cut(schema[key], depth - 1);
  for (const key of ALTERNATIVES) {
    const options = schema[key];
    if (Array.isArray(options)) out[key] = options.slice(0, 5).map((o) => (isObject(o) ? cut(o, depth - 1) : o));
  }
  return out;
}
