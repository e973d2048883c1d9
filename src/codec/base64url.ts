/**
 * Base64url without padding (RFC 4648 §5), with a strict decoder: only the canonical encoding of a
 * byte string decodes, so no two token strings carry the same bytes.
 *
 * @module
 */

const CHUNK = 0x8000;
const ALPHABET = /^[A-Za-z0-9_-]*$/;

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
  return base64Encode(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
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
  let binary = "";
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

/**
 * Decodes base64url text. Refuses padding, characters outside the alphabet, impossible lengths and
 * non-canonical encodings (unused bits that are not zero).
 *
 * @param text The text.
 * @returns The bytes, or `undefined` when the text is not a canonical encoding.
 */
export function base64urlDecode(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (text.length % 4 === 1 || !ALPHABET.test(text)) return undefined;
  let binary: string;
  try {
    binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return base64urlEncode(bytes) === text ? bytes : undefined;
}
