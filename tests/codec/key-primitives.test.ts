import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { keyPrimitives, nodePrimitives, webPrimitives } from "../../src/codec/key-primitives.ts";
import { nodeCrypto } from "../../src/runtime/node-crypto.ts";

const MAC_KEY = crypto.getRandomValues(new Uint8Array(32));
const SEAL_KEY = crypto.getRandomValues(new Uint8Array(32));
const node = nodeCrypto();
const noNode = "this runtime has no process.getBuiltinModule('node:crypto')";

describe("key primitives", () => {
  it("uses node:crypto where the runtime has it: every operation answers at once, not in a promise", async (t) => {
    if (node === undefined) return t.skip(noNode);
    const key = await keyPrimitives(MAC_KEY, SEAL_KEY);
    const iv = new Uint8Array(12), aad = new Uint8Array([1]), text = new Uint8Array([104, 105]);
    const mac = key.mac(text);
    assert.ok(mac instanceof Uint8Array && mac.byteLength === 32);
    assert.equal(key.checkMac(mac, text), true);
    const sealed = key.seal(iv, aad, text);
    assert.ok(sealed instanceof Uint8Array);
    assert.deepEqual([...key.open(iv, aad, sealed) as Uint8Array], [104, 105]);
  });

  it("gives the same bytes through node:crypto and Web Crypto, each accepting the other's", async (t) => {
    if (node === undefined) return t.skip(noNode);
    const fast = nodePrimitives(node, MAC_KEY, SEAL_KEY);
    const web = await webPrimitives(MAC_KEY, SEAL_KEY);
    for (const size of [0, 1, 15, 16, 17, 200, 5000]) {
      const text = crypto.getRandomValues(new Uint8Array(size));
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const aad = crypto.getRandomValues(new Uint8Array(5));
      assert.deepEqual([...await fast.mac(text)], [...await web.mac(text)], `HMAC of ${size} bytes`);
      const sealed = await fast.seal(iv, aad, text);
      assert.deepEqual([...sealed], [...await web.seal(iv, aad, text)], `AES-GCM of ${size} bytes`);
      assert.deepEqual([...await web.open(iv, aad, sealed)], [...text]);
      assert.deepEqual([...await fast.open(iv, aad, sealed)], [...text]);
      assert.equal(await fast.checkMac(await web.mac(text), text), true);
    }
  });

  it("decrypts an authenticated message through the kept AES-ECB keystream as open() does, call after call", async (t) => {
    if (node === undefined) return t.skip(noNode);
    const fast = nodePrimitives(node, MAC_KEY, SEAL_KEY);
    assert.equal(typeof fast.decrypt, "function");
    const web = await webPrimitives(MAC_KEY, SEAL_KEY);
    assert.equal(web.decrypt, undefined); // Web Crypto decrypts with open(), tag checked
    for (const size of [0, 1, 15, 16, 17, 200, 5000, 3, 16, 31]) {
      const text = crypto.getRandomValues(new Uint8Array(size));
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = await web.seal(iv, new Uint8Array([1]), text);
      assert.deepEqual([...fast.decrypt!(iv, sealed.subarray(0, size))], [...text], `${size} bytes`);
    }
  });

  it("does without the keystream where node:crypto has no AES-ECB, and uses open() then", async (t) => {
    if (node === undefined) return t.skip(noNode);
    const partial = {
      ...node,
      createCipheriv: ((algorithm: string, ...rest: unknown[]) => {
        if (algorithm !== "aes-256-gcm") throw new Error(`${algorithm} is not supported`);
        return (node.createCipheriv as (...args: unknown[]) => unknown)(algorithm, ...rest);
      }) as typeof node.createCipheriv,
    };
    const key = nodePrimitives(partial, MAC_KEY, SEAL_KEY);
    assert.equal(key.decrypt, undefined);
    const iv = new Uint8Array(12), aad = new Uint8Array([1]);
    assert.deepEqual([...await key.open(iv, aad, await key.seal(iv, aad, new Uint8Array([7])))], [7]);
  });

  it("refuses a wrong MAC, a forged tag, other additional data and a short MAC (both implementations)", async () => {
    const impls = [await webPrimitives(MAC_KEY, SEAL_KEY)];
    if (node !== undefined) impls.push(nodePrimitives(node, MAC_KEY, SEAL_KEY));
    const text = new TextEncoder().encode('{"s":"state"}');
    const iv = new Uint8Array(12), aad = new Uint8Array([1, 0, 0, 0, 0]);
    for (const key of impls) {
      const mac = await key.mac(text);
      const wrong = mac.slice();
      wrong[31] ^= 1;
      assert.equal(await key.checkMac(wrong, text), false);
      assert.equal(await key.checkMac(mac.subarray(0, 16), text), false);
      const sealed = await key.seal(iv, aad, text);
      const forged = sealed.slice();
      forged[0] ^= 1;
      await assert.rejects(async () => await key.open(iv, aad, forged));
      await assert.rejects(async () => await key.open(iv, new Uint8Array([0, 0, 0, 0, 0]), sealed));
      await assert.rejects(async () => await key.open(iv, aad, sealed.subarray(0, 8)));
    }
  });
});
