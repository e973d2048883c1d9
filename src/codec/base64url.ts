/**
 * Base64url without padding (RFC 4648 §5), with a strict decoder: only the canonical encoding of a
 * byte string decodes, so no two token strings carry the same bytes. Uses the runtime's
 * `Uint8Array.prototype.toBase64` / `Uint8Array.fromBase64` (TC39 proposal-arraybuffer-base64) where it
 * has them, a table otherwise: both avoid building a binary string, which cost more than the HMAC of a token.
 *
 * @module
 */

const ALPHABET = /^[A-Za-z0-9_-]*$/;
// An array, not a string constant, which a bundler copies into each of the eight places that index it.
const DIGITS: readonly string[] = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"];
const VALUE = new Uint8Array(128);
for (let i = 0; i < DIGITS.length; i++) VALUE[DIGITS[i].charCodeAt(0)] = i;

interface NativeBase64 {
  toBase64?(options: { alphabet: "base64url"; omitPadding: boolean }): string;
}
const nativeFrom = (Uint8Array as unknown as {
  fromBase64?: (text: string, options: { alphabet: "base64url" }) => Uint8Array<ArrayBuffer>;
}).fromBase64;
const nativeTo = typeof (Uint8Array.prototype as NativeBase64).toBase64 === "function";

/**
 * Encodes bytes as base64url, without padding.
 *
 * @param bytes The bytes.
 * @returns The text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { base64urlDecode, base64urlEncode } from "./base64url.ts";
 * assert.equal(base64urlEncode(new Uint8Array([251, 255])), "-_8");
 * assert.deepEqual(base64urlDecode("-_8"), new Uint8Array([251, 255]));
 * ```
 */
export function base64urlEncode(bytes: Uint8Array): string {
  return nativeTo
    ? (bytes as NativeBase64).toBase64!({ alphabet: "base64url", omitPadding: true })
    : tableEncode(bytes);
}

/**
 * {@link base64urlEncode} without the runtime's `toBase64`: the fallback, exported for its tests.
 *
 * @param bytes The bytes.
 * @returns The text.
 */
export function tableEncode(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 3) {
    // past the end, bytes[i] is undefined, which `<<` and `|` read as 0: the last group is padded with zeros
    const n = bytes[i] << 16 | bytes[i + 1] << 8 | bytes[i + 2];
    text += DIGITS[n >> 18] + DIGITS[n >> 12 & 63] + DIGITS[n >> 6 & 63] + DIGITS[n & 63];
  }
  return text.slice(0, Math.ceil(bytes.length * 4 / 3)); // the digits of the padding dropped
}

/**
 * Encodes bytes as base64 with padding (RFC 4648 §4), as MCP's `blob` fields carry them.
 *
 * @param bytes The bytes.
 * @returns The text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { base64Encode } from "./base64url.ts";
 * assert.equal(base64Encode(new Uint8Array([251, 255])), "+/8=");
 * ```
 */
export function base64Encode(bytes: Uint8Array): string {
  const text = base64urlEncode(bytes).replaceAll("-", "+").replaceAll("_", "/");
  return text + "=".repeat((4 - text.length % 4) % 4);
}

/**
 * Decodes base64url text. Refuses padding, characters outside the alphabet, impossible lengths and
 * non-canonical encodings (unused bits that are not zero).
 *
 * @param text The text.
 * @returns The bytes, or `undefined` when the text is not a canonical encoding.
 */
export function base64urlDecode(text: string): Uint8Array<ArrayBuffer> | undefined {
  const tail = text.length % 4;
  if (tail === 1 || !ALPHABET.test(text)) return undefined;
  // The last character of a partial group carries 4 (two left) or 2 (three left) bits that encode nothing.
  if (tail !== 0 && (VALUE[text.charCodeAt(text.length - 1)] & (tail === 2 ? 15 : 3)) !== 0) return undefined;
  return nativeFrom !== undefined ? nativeFrom(text, { alphabet: "base64url" }) : tableDecode(text);
}

/**
 * Decodes base64url text already checked by {@link base64urlDecode}, without the runtime's `fromBase64`:
 * the fallback, exported for its tests.
 *
 * @param text Canonical base64url text.
 * @returns The bytes.
 */
export function tableDecode(text: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array((text.length * 3) >> 2);
  for (let i = 0, at = 0; i < text.length; i += 4) {
    // past the end, charCodeAt is NaN and VALUE[NaN] undefined, read as 0; bytes written past the array's end are dropped
    const n = VALUE[text.charCodeAt(i)] << 18 | VALUE[text.charCodeAt(i + 1)] << 12 |
      VALUE[text.charCodeAt(i + 2)] << 6 | VALUE[text.charCodeAt(i + 3)];
    bytes[at++] = n >> 16;
    bytes[at++] = n >> 8;
    bytes[at++] = n;
  }
  return bytes;
}
