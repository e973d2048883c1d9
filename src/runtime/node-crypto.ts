/**
 * The runtime's `node:crypto`, when it has one, reached without importing it: `process.getBuiltinModule`
 * (Node ≥ 22.3, Bun, Deno, Workers with `nodejs_compat`) hands it over at run time, so a bundle for a
 * platform without it (a browser, a Worker without `nodejs_compat`) neither fails nor carries a polyfill.
 * Its hashes and AES-GCM run on the calling thread, where Web Crypto's wait for the runtime's thread pool
 * (40–70 µs per call, more than a whole request). Callers keep Web Crypto as the fallback.
 *
 * @module
 */

/** A hash in progress. */
export interface NodeHash {
  /** Feeds bytes. */
  update(data: Uint8Array): NodeHash;
  /** The digest. */
  digest(): Uint8Array;
}

/** An AES-GCM encryption or decryption in progress. */
export interface NodeCipher {
  /** Authenticates bytes that are not encrypted. */
  setAAD(data: Uint8Array): NodeCipher;
  /** Encrypts or decrypts bytes. */
  update(data: Uint8Array): Uint8Array;
  /** Finishes; a decryption throws here when the tag does not match. */
  final(): Uint8Array;
  /** The tag of a finished encryption. */
  getAuthTag?(): Uint8Array;
  /** The tag a decryption must match. */
  setAuthTag?(tag: Uint8Array): NodeCipher;
  /** Turns PKCS #7 padding off (a block mode), so that whole blocks in give as many out. */
  setAutoPadding?(on: boolean): NodeCipher;
}

/** The part of `node:crypto` the SDK uses. */
export interface NodeCrypto {
  /** Starts a hash. */
  createHash(algorithm: "sha256"): NodeHash;
  /** Starts an encryption. */
  createCipheriv(
    algorithm: "aes-256-gcm",
    key: Uint8Array,
    iv: Uint8Array,
    options: { authTagLength: number },
  ): NodeCipher;
  /** Starts an AES-256 encryption of whole blocks, one by one (ECB: no IV), kept for many calls. */
  createCipheriv(algorithm: "aes-256-ecb", key: Uint8Array, iv: null): NodeCipher;
  /** Starts a decryption. */
  createDecipheriv(
    algorithm: "aes-256-gcm",
    key: Uint8Array,
    iv: Uint8Array,
    options: { authTagLength: number },
  ): NodeCipher;
  /** Compares two byte strings of the same length in constant time. */
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}

/**
 * Returns the runtime's `node:crypto`, or `undefined` where there is none (or no way to reach it
 * without a static import). The first call reaches it; later calls return the same answer.
 *
 * @returns The module, or `undefined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nodeCrypto } from "./node-crypto.ts";
 * const crypto = nodeCrypto();
 * if (crypto !== undefined) assert.equal(crypto.createHash("sha256").update(new Uint8Array()).digest().length, 32);
 * ```
 */
export function nodeCrypto(): NodeCrypto | undefined {
  if (reached === false) reached = reach();
  return reached;
}

/**
 * The module once reached; `false` until the first call. Reached on first use, never at import:
 * loading `node:crypto` costs Bun about 10 ms, which a server that signs no token must not pay at start.
 */
let reached: NodeCrypto | undefined | false = false;

function reach(): NodeCrypto | undefined {
  const g = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  try {
    const module = g.process?.getBuiltinModule?.("node:crypto") as Partial<NodeCrypto> | undefined;
    return typeof module?.createHash === "function" && typeof module.createCipheriv === "function"
      ? module as NodeCrypto
      : undefined;
  } catch {
    return undefined; // a platform that refuses the module
  }
}
