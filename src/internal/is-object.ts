/**
 * The one check for "a JSON object": untrusted input is narrowed with it everywhere.
 *
 * @module
 */

/**
 * Tells whether a value is a plain object (not `null`, not an array), as a JSON object parses.
 *
 * @param value The value.
 * @returns `true` for an object that is not an array.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isObject } from "./is-object.ts";
 * assert.equal(isObject({ a: 1 }), true);
 * assert.equal(isObject([1]), false);
 * assert.equal(isObject(null), false);
 * ```
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
