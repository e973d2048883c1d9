/**
 * Finds a number JSON cannot carry (RFC 8259 §6: no Infinity, no NaN) in a decoded value: a JSON
 * number too large for a double (`1e400`) parses as `Infinity`, and a protobuf `Struct` may carry
 * either; such an argument would pass `v.number()` and fail only when the answer is serialised.
 *
 * @module
 */

/**
 * The dotted path of the first non-finite number in a value (arrays and plain objects are searched, at most
 * {@link MAX_DEPTH} levels down: a handler's output is not parsed, so nothing else bounds it).
 *
 * @param value The decoded value.
 * @param path The path of `value` itself (`""`: the root).
 * @param depth How deep `value` is.
 * @returns The path (`""` for the root, `items.0.price` below it), or `undefined` when every number is finite.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nonFinitePath } from "./non-finite.ts";
 * assert.equal(nonFinitePath(JSON.parse('{"items":[{"price":1e400}]}')), "items.0.price");
 * assert.equal(nonFinitePath({ a: 1, b: ["x", 2.5] }), undefined);
 * ```
 */
export function nonFinitePath(value: unknown, path = "", depth = 0): string | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? undefined : path;
  if (typeof value !== "object" || value === null || depth > MAX_DEPTH) return undefined;
  for (const key in value) { // an array's indices too
    const found = nonFinitePath((value as Record<string, unknown>)[key], path ? `${path}.${key}` : key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Deeper than any JSON body the server parses (`maxJsonDepth`, 64 by default). */
const MAX_DEPTH = 256;
