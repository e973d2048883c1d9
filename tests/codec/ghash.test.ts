import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ghash } from "../../src/codec/ghash.ts";
import { nodeCrypto } from "../../src/internal/node-crypto.ts";

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

describe("ghash (the GCM tag where a token is sealed over the kept AES-ECB cipher)", () => {
  it("gives the GCM specification's test case 2: GHASH(H, {}, C) = T ⊕ E(K, Y0)", () => {
    // McGrew & Viega, "The Galois/Counter Mode of Operation", test case 2 (K = 0^128)
    const h = Uint8Array.from("66e94bd4ef8a2c3b884cfa59ca342b2e".match(/../g)!, (b) => parseInt(b, 16));
    const c = Uint8Array.from("0388dace60b6a392f328c2b971b2fe78".match(/../g)!, (b) => parseInt(b, 16));
    // T = ab6e47d42cec13bdf53a67b21257bddf, E(K, Y0) = 58e2fccefa7e3061367f1d57a4e7455a
    assert.equal(hex(ghash(h)(new Uint8Array(), c)), "f38cbb1ad69223dcc3457ae5b6b0f885");
  });

  it("with E(K, J0) makes the tag an AES-256-GCM cipher makes, for any lengths", async (t) => {
    const node = nodeCrypto();
    if (node === undefined) return t.skip("no node:crypto on this runtime");
    const key = crypto.getRandomValues(new Uint8Array(32));
    const ecb = node.createCipheriv("aes-256-ecb", key, null);
    ecb.setAutoPadding!(false);
    const tag = ghash(ecb.update(new Uint8Array(16)));
    const web = await crypto.subtle.importKey("raw", key, "AES-GCM", false, ["encrypt"]);
    for (const [aadLength, length] of [[0, 0], [5, 1], [5, 16], [5, 17], [0, 134], [33, 200]]) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const aad = crypto.getRandomValues(new Uint8Array(aadLength));
      const sealed = new Uint8Array(
        await crypto.subtle.encrypt(
          { name: "AES-GCM", iv, additionalData: aad },
          web,
          crypto.getRandomValues(new Uint8Array(length)),
        ),
      );
      const j0 = new Uint8Array(16);
      j0.set(iv);
      j0[15] = 1;
      const mask = ecb.update(j0);
      const made = tag(aad, sealed.subarray(0, length)).map((b, i) => b ^ mask[i]);
      assert.equal(hex(made), hex(sealed.subarray(length)), `${aadLength} bytes of AAD, ${length} of plaintext`);
    }
  });
});
