import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { base64urlDecode, base64urlEncode, tableDecode, tableEncode } from "../../src/codec/base64url.ts";

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

  it("gives the bytes btoa gives, through the runtime's toBase64 and through the table alike", () => {
    const viaBtoa = (bytes: Uint8Array) =>
      btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
    for (let n = 0; n <= 300; n++) {
      const bytes = crypto.getRandomValues(new Uint8Array(n));
      const text = viaBtoa(bytes);
      assert.equal(base64urlEncode(bytes), text);
      assert.equal(tableEncode(bytes), text);
      assert.deepEqual(tableDecode(text), bytes);
      // Of the 64 possible last characters, only the canonical one decodes.
      const accepted = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"]
        .map((c) => text.slice(0, -1) + c)
        .filter((candidate) => base64urlDecode(candidate) !== undefined);
      if (n > 0) assert.equal(accepted.filter((t) => viaBtoa(base64urlDecode(t)!) !== t).length, 0);
    }
  });
});
