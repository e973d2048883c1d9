/**
 * `readJson`: the same answers whether a body comes with a `Content-Length` (small bodies are parsed by
 * the runtime and checked after) or without one (read chunk by chunk, scanned before parsing).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ErrorCode } from "../../src/errors/mod.ts";
import { resolveOptions } from "../../src/server/server-options.ts";
import { readJson } from "../../src/server/read-json.ts";

const options = resolveOptions({ name: "t", version: "1", maxBodyBytes: 4096 });

/** The same body, with and without a declared length. */
function requests(body: string): [string, Request][] {
  const make = (withLength: boolean) =>
    new Request("http://localhost/x", {
      method: "POST",
      headers: withLength
        ? { "content-type": "application/json", "content-length": String(new TextEncoder().encode(body).byteLength) }
        : { "content-type": "application/json" },
      body,
    });
  return [["with Content-Length", make(true)], ["without Content-Length", make(false)]];
}

describe("readJson", () => {
  it("parses a body the same way with and without Content-Length", async () => {
    for (const [label, request] of requests('{"a":[1,{"b":"x"}],"é":"ü"}')) {
      assert.deepEqual(await readJson(request, options), { a: [1, { b: "x" }], "é": "ü" }, label);
    }
  });

  it("drops __proto__ keys at every level, so none reaches a prototype", async () => {
    const body = '{"__proto__":{"polluted":1},"a":{"__proto__":{"polluted":2},"b":[{"__proto__":{"x":3}}]}}';
    for (const [label, request] of requests(body)) {
      const value = await readJson(request, options) as { a: { b: Record<string, unknown>[] } };
      assert.equal(Object.hasOwn(value, "__proto__"), false, label);
      assert.equal(Object.hasOwn(value.a, "__proto__"), false, label);
      assert.equal(Object.hasOwn(value.a.b[0], "__proto__"), false, label);
      assert.equal(({} as Record<string, unknown>).polluted, undefined, label);
    }
  });

  it("drops __proto__ keys written with \\u escapes too", async () => {
    const body = '{"\\u005f_proto__":{"polluted":1},"a":{"__\\u0070roto__":{"polluted":2}},"t":"\\u00e9"}';
    for (const [label, request] of requests(body)) {
      const value = await readJson(request, options) as { a: Record<string, unknown>; t: string };
      assert.equal(Object.hasOwn(value, "__proto__"), false, label);
      assert.equal(Object.hasOwn(value.a, "__proto__"), false, label);
      assert.equal(value.t, "é", label);
    }
  });

  it("refuses nesting deeper than maxJsonDepth, and accepts exactly maxJsonDepth", async () => {
    const depth = options.maxJsonDepth;
    for (const [label, request] of requests("[".repeat(depth + 1) + "]".repeat(depth + 1))) {
      await assert.rejects(readJson(request, options), { code: ErrorCode.ParseError }, label);
    }
    for (const [label, request] of requests(`{"a":${"[".repeat(depth - 1)}"[{"${"]".repeat(depth - 1)}}`)) {
      await readJson(request, options).then(() => {}, (error) => assert.fail(`${label}: ${error}`));
    }
  });

  it("answers malformed JSON with parse_error and oversize bodies with payload_too_large", async () => {
    for (const [label, request] of requests('{"a":')) {
      await assert.rejects(readJson(request, options), { code: ErrorCode.ParseError }, label);
    }
    for (const [label, request] of requests(`{"a":"${"x".repeat(5000)}"}`)) {
      await assert.rejects(readJson(request, options), { code: ErrorCode.PayloadTooLarge }, label);
    }
  });
});
