import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { base64urlDecode, base64urlEncode } from "../../src/codec/base64url.ts";

describe("base64url", () => {
  it("round-trips every length from 0 to 100", () => {
    for (let n = 0; n <= 100; n++) {
      const bytes = crypto.getRandomValues(new Uint8Array(n));
      const text = base64urlEncode(bytes);
      assert.match(text, /^[A-Za-z0-9_-]*$/);
      assert.deepEqual(base64urlDecode(text), bytes);
    }
  });

  it("refuses padding, foreign characters, impossible lengths and non-canonical encodings", () => {
    assert.equal(base64urlDecode("-_8="), undefined);
    assert.equal(base64urlDecode("a+b/"), undefined);
    assert.equal(base64urlDecode("abcde"), undefined);
    assert.equal(base64urlDecode("-_9"), undefined); // same bytes as "-_8" with a non-zero unused bit
    assert.equal(base64urlDecode("ab c"), undefined);
    assert.deepEqual(base64urlDecode(""), new Uint8Array(0));
  });
});
