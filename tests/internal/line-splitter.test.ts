import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Line, LineSplitter, OVERSIZE } from "../../src/internal/line-splitter.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (lines: Line[]) => lines.map((line) => line === OVERSIZE ? "<oversize>" : new TextDecoder().decode(line));

describe("LineSplitter", () => {
  it("joins a line split across reads and splits a read holding many lines", () => {
    const splitter = new LineSplitter(100);
    assert.deepEqual(text(splitter.push(bytes('{"a":'))), []);
    assert.deepEqual(text(splitter.push(bytes('1}\n{"b":2}\n{"c"'))), ['{"a":1}', '{"b":2}']);
    assert.deepEqual(text(splitter.push(bytes(":3}\n"))), ['{"c":3}']);
  });

  it("drops the \\r of \\r\\n endings, skips blank lines, and keeps a last line without newline", () => {
    const splitter = new LineSplitter(100);
    assert.deepEqual(text(splitter.push(bytes("one\r\n\r\n  \ntwo\r"))), ["one"]);
    assert.deepEqual(text(splitter.push(bytes("\nthree"))), ["two"]);
    assert.deepEqual(text([splitter.finish()!]), ["three"]);
    assert.equal(splitter.finish(), undefined);
  });

  it("reports a line over the limit once, without buffering it, and goes on with the next line", () => {
    const splitter = new LineSplitter(8);
    assert.deepEqual(text(splitter.push(bytes("12345678\n123456789"))), ["12345678"]);
    assert.deepEqual(text(splitter.push(bytes("0".repeat(10_000)))), []);
    assert.deepEqual(text(splitter.push(bytes("more\nok\n"))), ["<oversize>", "ok"]);
    assert.deepEqual(text(splitter.push(bytes("123456789\n"))), ["<oversize>"]);
    assert.deepEqual(text(splitter.push(bytes("12345678\r\n"))), ["12345678"]); // the \r is not content
  });

  it("splits multi-byte characters across reads without damage", () => {
    const splitter = new LineSplitter(100);
    const all = bytes("héllo 🌍\n");
    assert.deepEqual(
      text([
        ...splitter.push(all.subarray(0, 2)),
        ...splitter.push(all.subarray(2, 8)),
        ...splitter.push(all.subarray(8)),
      ]),
      ["héllo 🌍"],
    );
  });
});
