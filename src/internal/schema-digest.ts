/**
 * A large schema, cut down: the same shape to a given depth, with what a model needs to write arguments
 * or read a result (types, descriptions, short enums, required names), without what only a validator
 * needs. Every cut only widens what the schema accepts, so it still validates what the whole one did.
 * Why: Microsoft Graph's schemas run to megabytes each (`GET /me` answers a 7 MB schema inlined).
 *
 * @module
 */
import { isObject } from "./is-object.ts";

/** The keys kept as they are. */
const KEPT = ["type", "title", "description", "format", "required", "default", "const", "nullable"];
/** The keys whose values are schemas, kept one level shallower. */
const NESTED = ["items", "additionalProperties"];
/** Longer enums and lists of alternatives are left out (any value), never shortened (fewer values). */
const MAX_LISTED = 20;

/**
 * The schema whole when its JSON fits in `maxBytes`, else cut to the deepest depth that fits (at least
 * its top-level properties' types and descriptions), marked with `x-digest: true`. A cut accepts at
 * least what the schema did: deeper levels, long enums and long lists of alternatives go (any value), a
 * `oneOf` becomes an `anyOf` (two alternatives cut alike would both match), `allOf` members stay.
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
export function schemaDigest<S extends Record<string, unknown>>(schema: S, maxBytes: number): S {
  if (maxBytes === Infinity || fits(schema, maxBytes)) return schema;
  let digest = { ...cut(schema, 1), "x-digest": true };
  for (let depth = 2; depth <= 8; depth++) {
    const deeper = { ...cut(schema, depth), "x-digest": true };
    if (!fits(deeper, maxBytes)) break;
    digest = deeper;
  }
  return digest as unknown as S;
}

/** Whether a value's JSON takes at most `budget` characters, counted until the budget runs out. */
function fits(value: unknown, budget: number): boolean {
  return size(value, budget) <= budget;
}

function size(value: unknown, budget: number): number {
  if (typeof value === "string") return value.length + 2;
  if (value === null || typeof value !== "object") return String(value).length;
  let total = 2;
  if (Array.isArray(value)) {
    for (const item of value) {
      total += size(item, budget - total) + 1;
      if (total > budget) return total;
    }
    return total;
  }
  for (const [key, item] of Object.entries(value)) {
    total += key.length + 4 + size(item, budget - total);
    if (total > budget) return total;
  }
  return total;
}

/** A schema to `depth` levels of properties, items and alternatives. */
function cut(schema: Record<string, unknown>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of KEPT) if (schema[key] !== undefined) out[key] = schema[key];
  if (Array.isArray(schema.enum) && schema.enum.length <= MAX_LISTED) out.enum = schema.enum;
  if (depth <= 0) return out;
  if (isObject(schema.properties)) {
    const properties: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      properties[name] = isObject(property) ? cut(property, depth - 1) : property;
    }
    out.properties = properties;
  }
  for (const key of NESTED) if (isObject(schema[key])) out[key] = cut(schema[key], depth - 1);
  const nest = (options: unknown[]) => options.map((o) => (isObject(o) ? cut(o, depth - 1) : o));
  if (Array.isArray(schema.allOf)) out.allOf = nest(schema.allOf);
  for (const key of ["anyOf", "oneOf"]) {
    const options = schema[key];
    if (Array.isArray(options) && options.length <= MAX_LISTED) out.anyOf = nest(options);
  }
  return out;
}
