/**
 * A large schema, cut down: the same shape level by level as far as it fits, with what a model needs to
 * write arguments or read a result (types, descriptions, short enums, required names), without what only a validator
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
 * The schema whole when its JSON fits in `maxBytes`, else its digest, marked `x-digest: true`: the schema
 * level by level (breadth first, in the order it lists its properties), each subschema with the keys a
 * reader needs, until the next one would pass `maxBytes`; at least the top level. A digest accepts at least
 * what the schema did: what is left out accepts any value, long enums and long or partly left-out lists of
 * alternatives go whole, a `oneOf` becomes an `anyOf` (two alternatives cut alike would both match).
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
  const root = shallow(schema);
  let used = size(root, Infinity) + '"x-digest":true,'.length;
  const queue: [source: Record<string, unknown>, digest: Record<string, unknown>][] = [[schema, root]];
  /** Adds a subschema's digest if it fits, and queues it to go deeper. */
  const take = (source: unknown, key: string): Record<string, unknown> | undefined => {
    if (!isObject(source)) return undefined;
    const digest = shallow(source);
    const cost = size(digest, Infinity) + key.length + 4;
    if (used + cost > maxBytes) return undefined;
    used += cost;
    queue.push([source, digest]);
    return digest;
  };
  for (let next = 0; next < queue.length; next++) {
    const [source, digest] = queue[next];
    if (isObject(source.properties)) {
      const properties: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(source.properties)) {
        const taken = take(property, name);
        if (taken === undefined) break; // the rest of this level (and below) is left out
        properties[name] = taken;
      }
      if (Object.keys(properties).length > 0) digest.properties = properties;
    }
    for (const key of NESTED) {
      const taken = take(source[key], key);
      if (taken !== undefined) digest[key] = taken;
    }
    if (Array.isArray(source.allOf)) {
      const members = source.allOf.map((member) => take(member, "")).filter((member) => member !== undefined);
      if (members.length > 0) digest.allOf = members; // fewer members of an allOf: fewer constraints
    }
    for (const key of ["anyOf", "oneOf"]) {
      const options = source[key];
      if (!Array.isArray(options) || options.length > MAX_LISTED || digest.anyOf !== undefined) continue;
      if (!options.every(isObject)) continue;
      // All of them or none: fewer alternatives would accept less.
      const digests = options.map(shallow);
      const cost = digests.reduce((sum, option) => sum + size(option, Infinity) + 1, 0);
      if (used + cost > maxBytes) continue;
      used += cost;
      options.forEach((option, i) => queue.push([option, digests[i]]));
      digest.anyOf = digests;
    }
  }
  return { ...root, "x-digest": true } as unknown as S;
}

/** A subschema's own keys a reader needs, without the subschemas below it. */
function shallow(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of KEPT) if (schema[key] !== undefined) out[key] = schema[key];
  if (Array.isArray(schema.enum) && schema.enum.length <= MAX_LISTED) out.enum = schema.enum;
  return out;
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
