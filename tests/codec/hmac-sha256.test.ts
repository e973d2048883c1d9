import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { constantTimeEqual, hmacSha256 } from "../../src/codec/hmac-sha256.ts";

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const utf8 = (text: string) => new TextEncoder().encode(text);

describe("hmacSha256 (the MAC of tokens where it runs in JavaScript)", () => {
  it("gives RFC 4231's HMAC-SHA-256 test vectors", () => {
    // RFC 4231 §4.2 (test case 1) and §4.3 (test case 2)
    assert.equal(
      hex(hmacSha256(new Uint8Array(20).fill(0x0b))(utf8("Hi There"))),
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
    );
    assert.equal(
      hex(hmacSha256(utf8("Jefe"))(utf8("what do ya want for nothing?"))),
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    );
  });

  it("gives Web Crypto's HMAC for every length around SHA-256's block and padding boundaries", async () => {
    const key = crypto.getRandomValues(new Uint8Array(32));
    const mac = hmacSha256(key);
    const web = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 300]) {
      const data = crypto.getRandomValues(new Uint8Array(length));
      const expected = new Uint8Array(await crypto.subtle.sign("HMAC", web, data));
      assert.equal(hex(mac(data)), hex(expected), `${length} bytes`);
      assert.equal(hex(mac(data)), hex(expected), `${length} bytes, again (nothing kept between calls)`);
    }
  });

  it("compares MACs byte for byte", () => {
    const a = new Uint8Array(32).fill(1);
    const b = a.slice();
    assert.ok(constantTimeEqual(a, b));
    b[31] ^= 1;
    assert.ok(!constantTimeEqual(a, b));
    assert.ok(!constantTimeEqual(a, a.subarray(1)));
  });
});
