/**
 * GHASH (NIST SP 800-38D §6.4), the authenticator of AES-GCM, in plain JavaScript: multiplication by the
 * hash subkey H in GF(2^128) with a 4-bit table of H's multiples made once per key (Shoup's method), so
 * that a GCM tag can be made beside a kept AES-ECB cipher instead of a GCM cipher object per call.
 *
 * @module
 */

/** The reduction of the four bits shifted out (x^128 = x^7 + x^2 + x + 1), placed in the top 16 bits. */
const LAST4 = new Int32Array([
  0x0000,
  0x1c20,
  0x3840,
  0x2460,
  0x7080,
  0x6ca0,
  0x48c0,
  0x54e0,
  0xe100,
  0xfd20,
  0xd940,
  0xc560,
  0x9180,
  0x8da0,
  0xa9c0,
  0xb5e0,
]).map((r) => r << 16);

/**
 * GHASH under one hash subkey: `GHASH_H(A ‖ 0* ‖ C ‖ 0* ‖ [len(A)]64 ‖ [len(C)]64)`, the value GCM
 * XORs with `E(K, J0)` to make its tag (NIST SP 800-38D §7.1 steps 5–6).
 *
 * @param h The hash subkey, `E(K, 0^128)` (16 bytes).
 * @returns GHASH of an AAD and a ciphertext (16 bytes, a new array each call).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ghash } from "./ghash.ts";
 * // Nothing to authenticate: GHASH of the zero length block is zero.
 * assert.deepEqual(ghash(new Uint8Array(16).fill(7))(new Uint8Array(), new Uint8Array()), new Uint8Array(16));
 * ```
 */
export function ghash(h: Uint8Array): (aad: Uint8Array, ciphertext: Uint8Array) => Uint8Array {
  // T[i] = i·H, i a 4-bit value read with its first bit as x^0 (the table of mbed TLS's gcm_gen_table).
  const T = new Int32Array(64);
  let v0 = word(h, 0), v1 = word(h, 4), v2 = word(h, 8), v3 = word(h, 12);
  T.set([v0, v1, v2, v3], 32); // 8·H = H
  for (let i = 4; i > 0; i >>= 1) {
    const carry = v3 & 1 ? 0xe1000000 | 0 : 0;
    v3 = (v3 >>> 1) | (v2 << 31);
    v2 = (v2 >>> 1) | (v1 << 31);
    v1 = (v1 >>> 1) | (v0 << 31);
    v0 = (v0 >>> 1) ^ carry;
    T.set([v0, v1, v2, v3], i * 4);
  }
  for (let i = 2; i <= 8; i *= 2) {
    for (let j = 1; j < i; j++) {
      for (let k = 0; k < 4; k++) T[(i + j) * 4 + k] = T[i * 4 + k] ^ T[j * 4 + k];
    }
  }
  const y = new Int32Array(4);

  /** Y = (Y ⊕ X)·H, X the block of `bytes` at `at`: the bytes from the last, a nibble at a time. */
  const absorb = (bytes: Uint8Array, at: number) => {
    let z0 = 0, z1 = 0, z2 = 0, z3 = 0;
    for (let i = 15; i >= 0; i--) {
      const byte = bytes[at + i] ^ (y[i >> 2] >>> (24 - 8 * (i & 3))) & 255;
      let n = byte & 15;
      if (i !== 15) {
        const rem = z3 & 15;
        z3 = (z3 >>> 4) | (z2 << 28);
        z2 = (z2 >>> 4) | (z1 << 28);
        z1 = (z1 >>> 4) | (z0 << 28);
        z0 = (z0 >>> 4) ^ LAST4[rem];
      }
      z0 ^= T[n << 2];
      z1 ^= T[(n << 2) + 1];
      z2 ^= T[(n << 2) + 2];
      z3 ^= T[(n << 2) + 3];
      n = byte >>> 4;
      const rem = z3 & 15;
      z3 = (z3 >>> 4) | (z2 << 28);
      z2 = (z2 >>> 4) | (z1 << 28);
      z1 = (z1 >>> 4) | (z0 << 28);
      z0 = ((z0 >>> 4) ^ LAST4[rem]) ^ T[n << 2];
      z1 ^= T[(n << 2) + 1];
      z2 ^= T[(n << 2) + 2];
      z3 ^= T[(n << 2) + 3];
    }
    y[0] = z0, y[1] = z1, y[2] = z2, y[3] = z3;
  };
  const padded = new Uint8Array(16);
  const absorbAll = (bytes: Uint8Array) => {
    const whole = bytes.byteLength & ~15;
    for (let at = 0; at < whole; at += 16) absorb(bytes, at);
    if (whole < bytes.byteLength) {
      padded.fill(0);
      padded.set(bytes.subarray(whole));
      absorb(padded, 0);
    }
  };
  return (aad, ciphertext) => {
    y.fill(0);
    absorbAll(aad);
    absorbAll(ciphertext);
    padded.fill(0);
    setBits(padded, 0, aad.byteLength * 8);
    setBits(padded, 8, ciphertext.byteLength * 8);
    absorb(padded, 0);
    const out = new Uint8Array(16);
    for (let i = 0; i < 16; i++) out[i] = y[i >> 2] >>> (24 - 8 * (i & 3));
    return out;
  };
}

function word(bytes: Uint8Array, at: number): number {
  return (bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];
}

/** A 64-bit big-endian bit count (below 2^53) at `at`. */
function setBits(out: Uint8Array, at: number, bits: number): void {
  const high = Math.floor(bits / 0x100000000);
  for (let i = 0; i < 4; i++) out[at + 3 - i] = high >>> (8 * i);
  for (let i = 0; i < 4; i++) out[at + 7 - i] = bits >>> (8 * i);
}
