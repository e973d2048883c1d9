/**
 * Finds a number JSON cannot carry (RFC 8259 §6: no Infinity, no NaN) in a decoded value: a JSON
 * number too large for a double (`1e400`) parses as `Infinity`, and a protobuf `Struct` may carry
 * either; such an argument would pass `v.number()` and fail only when the answer is serialised.
 *
 * @module
 */

/**
 * The dotted path of the first non-finite number in a value (arrays and plain objects are searched).
 *
 * @param value The decoded value.
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
export function nonFinitePath(value: unknown): string | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? undefined : "";
  if (typeof value !== "object" || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const below = nonFinitePath(value[i]);
      if (below !== undefined) return below === "" ? String(i) : `${i}.${below}`;
    }
    return undefined;
  }
  for (const key in value) {
    const below = nonFinitePath((value as Record<string, unknown>)[key]);
    if (below !== undefined) return below === "" ? key : `${key}.${below}`;
  }
  return undefined;
}
