/**
 * What a token key does: HMAC-SHA256 (RFC 2104) and AES-256-GCM (NIST SP 800-38D), synchronously through
 * the runtime's `node:crypto` where it has one, through Web Crypto otherwise. Both give the same bytes,
 * so a token made by either verifies with the other; the `node:crypto` ones are checked against Web
 * Crypto once per key before they are used, and a runtime whose `node:crypto` disagrees or throws gets
 * Web Crypto.
 *
 * @module
 */
import { type NodeCipher, type NodeCrypto, nodeCrypto } from "../runtime/node-crypto.ts";
import { utf8Encoder } from "../internal/utf8.ts";

/** The length of an AES-GCM tag, in bytes. */
export const TAG_BYTES = 16;

/** The operations of one token key. Each result is a value where the runtime allows, else a promise. */
export interface KeyPrimitives {
  /** The HMAC-SHA256 of `data` (32 bytes). */
  mac(data: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /** Whether `mac` is the HMAC-SHA256 of `data`, compared in constant time. */
  checkMac(mac: Uint8Array, data: Uint8Array): boolean | Promise<boolean>;
  /** AES-256-GCM: the ciphertext of `plaintext` followed by its 16-byte tag, `aad` authenticated. */
  seal(iv: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /** The plaintext of a sealed message. Throws when the tag does not match. */
  open(iv: Uint8Array, aad: Uint8Array, sealed: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /**
   * The plaintext of a sealed message whose every byte (tag included) a MAC under another key has
   * already authenticated: AES-GCM's own keystream (GCTR from inc32(J0), NIST SP 800-38D §7.2) XORed
   * with the ciphertext, without the GHASH tag check the MAC makes redundant (encrypt-then-MAC). Where
   * the runtime has a cheaper way than `open` (one AES-ECB cipher kept per key, where `open` builds a
   * GCM decipher per call); absent otherwise.
   */
  decrypt?(iv: Uint8Array, ciphertext: Uint8Array): Uint8Array;
}

/**
 * The operations of a key, from its derived MAC and sealing keys: synchronous through `node:crypto`
 * when the runtime has one that agrees with Web Crypto, else Web Crypto's.
 *
 * @param macKey The 32-byte HMAC key.
 * @param sealKey The 32-byte AES-256 key.
 * @returns The operations.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keyPrimitives } from "./key-primitives.ts";
 *
 * const key = await keyPrimitives(new Uint8Array(32).fill(1), new Uint8Array(32).fill(2));
 * const iv = new Uint8Array(12), aad = new Uint8Array([1]);
 * const sealed = await key.seal(iv, aad, new TextEncoder().encode("hi"));
 * assert.equal(new TextDecoder().decode(await key.open(iv, aad, sealed)), "hi");
 * assert.ok(await key.checkMac(await key.mac(sealed), sealed));
 * ```
 */
export async function keyPrimitives(macKey: Uint8Array, sealKey: Uint8Array): Promise<KeyPrimitives> {
  const web = await webPrimitives(macKey, sealKey);
  const node = nodeCrypto();
  if (node === undefined) return web;
  try {
    const fast = nodePrimitives(node, macKey, sealKey);
    return await agree(fast, web) ? fast : web;
  } catch {
    return web; // a partial node:crypto (a polyfill without AES-GCM, say)
  }
}

/**
 * The operations of a key through Web Crypto (asynchronous): every runtime has them.
 *
 * @param macKey The 32-byte HMAC key.
 * @param sealKey The 32-byte AES-256 key.
 * @returns The operations; the keys are imported once, not extractable.
 */
export async function webPrimitives(macKey: Uint8Array, sealKey: Uint8Array): Promise<KeyPrimitives> {
  const subtle = crypto.subtle;
  const [mac, seal] = await Promise.all([
    subtle.importKey("raw", macKey as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]),
    subtle.importKey("raw", sealKey as BufferSource, "AES-GCM", false, ["encrypt", "decrypt"]),
  ]);
  const gcm = (iv: Uint8Array, aad: Uint8Array) => ({ name: "AES-GCM", iv, additionalData: aad }) as AesGcmParams;
  return {
    mac: async (data) => new Uint8Array(await subtle.sign("HMAC", mac, data as BufferSource)),
    checkMac: (tag, data) => subtle.verify("HMAC", mac, tag as BufferSource, data as BufferSource),
    seal: async (iv, aad, plaintext) =>
      new Uint8Array(await subtle.encrypt(gcm(iv, aad), seal, plaintext as BufferSource)),
    open: async (iv, aad, sealed) => new Uint8Array(await subtle.decrypt(gcm(iv, aad), seal, sealed as BufferSource)),
  };
}

/**
 * The operations of a key through `node:crypto` (synchronous), the HMAC's padded keys made once.
 *
 * @param node The runtime's `node:crypto`.
 * @param macKey The 32-byte HMAC key.
 * @param sealKey The 32-byte AES-256 key.
 * @returns The operations.
 */
export function nodePrimitives(node: NodeCrypto, macKey: Uint8Array, sealKey: Uint8Array): KeyPrimitives {
  const options = { authTagLength: TAG_BYTES };
  // HMAC as RFC 2104 §2 defines it, H(K ⊕ opad ‖ H(K ⊕ ipad ‖ data)), over node:crypto's SHA-256 with
  // the padded keys made once: Deno's createHmac re-imports its key on every call (about twice the cost).
  const inner = new Uint8Array(64).fill(0x36);
  const outer = new Uint8Array(64).fill(0x5c);
  for (let i = 0; i < macKey.byteLength; i++) {
    inner[i] ^= macKey[i];
    outer[i] ^= macKey[i];
  }
  const hmac = (data: Uint8Array) =>
    node.createHash("sha256").update(outer).update(node.createHash("sha256").update(inner).update(data).digest())
      .digest();
  const decrypt = keystreamDecrypt(node, sealKey);
  return {
    ...(decrypt === undefined ? {} : { decrypt }),
    mac: hmac,
    checkMac: (tag, data) => tag.byteLength === 32 && node.timingSafeEqual(hmac(data), tag),
    seal(iv, aad, plaintext) {
      const cipher = node.createCipheriv("aes-256-gcm", sealKey, iv, options).setAAD(aad);
      const body = cipher.update(plaintext);
      const rest = cipher.final(); // empty for GCM, a stream mode
      const out = new Uint8Array(body.byteLength + rest.byteLength + TAG_BYTES);
      out.set(body);
      out.set(rest, body.byteLength);
      out.set(cipher.getAuthTag!(), body.byteLength + rest.byteLength);
      return out;
    },
    open(iv, aad, sealed) {
      if (sealed.byteLength < TAG_BYTES) throw new RangeError("shorter than its tag");
      const end = sealed.byteLength - TAG_BYTES;
      const decipher = node.createDecipheriv("aes-256-gcm", sealKey, iv, options).setAAD(aad);
      decipher.setAuthTag!(sealed.subarray(end));
      const body = decipher.update(sealed.subarray(0, end));
      const rest = decipher.final(); // throws when the tag does not match
      if (rest.byteLength === 0) return body;
      const out = new Uint8Array(body.byteLength + rest.byteLength);
      out.set(body);
      out.set(rest, body.byteLength);
      return out;
    },
  };
}

/**
 * GCM decryption without the tag check, over one AES-256-ECB cipher made once per key: each call
 * encrypts its counter blocks (IV ‖ inc32 from 2, NIST SP 800-38D §7.1 for a 96-bit IV) in one
 * `update`, whole blocks with padding off, so the cipher never holds a partial block between calls.
 */
function keystreamDecrypt(
  node: NodeCrypto,
  sealKey: Uint8Array,
): ((iv: Uint8Array, c: Uint8Array) => Uint8Array) | undefined {
  let ecb: NodeCipher;
  try {
    ecb = node.createCipheriv("aes-256-ecb", sealKey, null);
    if (typeof ecb.setAutoPadding !== "function") return undefined;
    ecb.setAutoPadding(false);
  } catch {
    return undefined; // a node:crypto without AES-ECB: open() serves
  }
  return (iv, ciphertext) => {
    const length = ciphertext.byteLength;
    const counters = new Uint8Array((length + 15) & ~15);
    for (let at = 0, n = 2; at < counters.byteLength; at += 16, n++) {
      // J0 = IV ‖ 0^31 ‖ 1 for a 96-bit IV; the plaintext's first block is XORed with E(inc32(J0))
      counters.set(iv, at);
      counters[at + 12] = n >>> 24; // a byte array keeps the low 8 bits of each
      counters[at + 13] = n >>> 16;
      counters[at + 14] = n >>> 8;
      counters[at + 15] = n;
    }
    const stream = ecb.update(counters);
    if (stream.byteLength !== counters.byteLength) throw new RangeError("AES-ECB held back blocks");
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++) out[i] = ciphertext[i] ^ stream[i];
    return out;
  };
}

/** Whether two sets of operations give the same bytes and accept each other's output (checked once per key). */
async function agree(a: KeyPrimitives, b: KeyPrimitives): Promise<boolean> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const aad = new Uint8Array([1, 2, 3, 4, 5]);
  const text = utf8Encoder.encode('{"v":1,"probe":"key primitives"}');
  const [macA, macB] = [await a.mac(text), await b.mac(text)];
  if (macA.byteLength !== 32 || !await b.checkMac(macA, text) || !await a.checkMac(macB, text)) return false;
  const wrong = macB.slice();
  wrong[0] ^= 1;
  if (await a.checkMac(wrong, text)) return false;
  const sealed = await a.seal(iv, aad, text);
  if (!sameBytes(sealed, await b.seal(iv, aad, text))) return false;
  if (!sameBytes(await b.open(iv, aad, sealed), text) || !sameBytes(await a.open(iv, aad, sealed), text)) return false;
  // `a` is node:crypto's: its keystream must give the plaintext, twice (nothing kept from call to call)
  const ciphertext = sealed.subarray(0, sealed.byteLength - TAG_BYTES);
  const decrypt = a.decrypt;
  if (decrypt && !(sameBytes(decrypt(iv, ciphertext), text) && sameBytes(decrypt(iv, ciphertext), text))) return false;
  const forged = sealed.slice();
  forged[forged.byteLength - 1] ^= 1;
  return await rejects(() => a.open(iv, aad, forged)); // an implementation that skips the tag check is refused
}

async function rejects(work: () => unknown): Promise<boolean> {
  try {
    await work();
    return false;
  } catch {
    return true;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}
