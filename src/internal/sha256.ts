/**
 * SHA-256 as lowercase hex (Web Crypto): canonical JSON hashes, skill file digests (SEP-2640 `sha256:`).
 *
 * @module
 */

/**
 * Hashes bytes with SHA-256.
 *
 * @param bytes The bytes.
 * @returns The lowercase hex digest.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sha256Hex } from "./sha256.ts";
 * assert.equal(
 *   await sha256Hex(new TextEncoder().encode("abc")),
 *   "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
 * );
 * ```
 */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
