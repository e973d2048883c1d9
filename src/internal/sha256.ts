/**
 * SHA-256: as bytes (synchronous through the runtime's `node:crypto` where it has one, e.g. a token's
 * caller tag), and as lowercase hex (Web Crypto: canonical JSON hashes, skill file digests, SEP-2640 `sha256:`).
 *
 * @module
 */
import { nodeCrypto } from "../runtime/node-crypto.ts";

/**
 * Hashes bytes with SHA-256, without waiting for Web Crypto where `node:crypto` can do it now.
 *
 * @param bytes The bytes.
 * @returns The 32-byte digest, or a promise of it (Web Crypto).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sha256 } from "./sha256.ts";
 * assert.equal((await sha256(new TextEncoder().encode("abc")))[0], 0xba);
 * ```
 */
export function sha256(bytes: Uint8Array): Uint8Array | Promise<Uint8Array> {
  const node = nodeCrypto(); // on first use, not at import (a cold start that signs nothing)
  if (node !== undefined) return node.createHash("sha256").update(bytes).digest();
  return crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>).then((digest) => new Uint8Array(digest));
}

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
