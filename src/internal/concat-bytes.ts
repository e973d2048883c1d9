/**
 * Joins byte chunks read from a stream into one array.
 *
 * @module
 */

/**
 * Copies `chunks` into one array of `size` bytes (their total length, which the reader counted).
 *
 * @param chunks The chunks, in order.
 * @param size Their total length in bytes.
 * @returns The bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { concatBytes } from "./concat-bytes.ts";
 * assert.deepEqual(concatBytes([new Uint8Array([1]), new Uint8Array([2, 3])], 3), new Uint8Array([1, 2, 3]));
 * ```
 */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
}
