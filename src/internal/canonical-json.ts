/**
 * Canonical JSON and its SHA-256: the same text for equal documents whatever their key order, so a
 * server and a client hash Webtools metadata alike (the `ETag` a client pins).
 *
 * @module
 */
import { sha256Hex } from "./sha256.ts";

/**
 * Serialises a JSON value canonically: object keys sorted at every depth, no whitespace.
 *
 * @param value The JSON value.
 * @returns The canonical JSON text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canonicalJson } from "./canonical-json.ts";
 * assert.equal(canonicalJson({ b: 1, a: { d: [2], c: null } }), '{"a":{"c":null,"d":[2]},"b":1}');
 * ```
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, sortKeys);
}

function sortKeys(_key: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = (value as Record<string, unknown>)[key];
  return sorted;
}

/**
 * Hashes a JSON value: the lowercase hex SHA-256 of its canonical JSON.
 *
 * @param value The JSON value.
 * @returns The hex digest.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canonicalHash } from "./canonical-json.ts";
 * assert.equal(await canonicalHash({ a: 1, b: 2 }), await canonicalHash({ b: 2, a: 1 }));
 * ```
 */
export async function canonicalHash(value: unknown): Promise<string> {
  return await sha256Hex(new TextEncoder().encode(canonicalJson(value)));
}
