/**
 * The UTF-8 length of a text, counted without encoding it.
 *
 * @module
 */

/**
 * Counts the bytes `TextEncoder` writes for a text (WHATWG Encoding, UTF-8 encode): U+0080–U+07FF take
 * two, the rest of the BMP three, a surrogate pair four, and a lone surrogate three (it becomes U+FFFD).
 *
 * @param text The text.
 * @returns Its length in UTF-8.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { utf8Length } from "./utf8-length.ts";
 * for (const text of ["abc", "é", "€", "😀", "\ud800"]) {
 *   assert.equal(utf8Length(text), new TextEncoder().encode(text).length);
 * }
 * ```
 */
export function utf8Length(text: string): number {
  let size = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) size += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        size += 2; // a surrogate pair: four bytes for two code units
        i++;
      } else size += 2;
    } else size += 2;
  }
  return size;
}
