import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseJson } from "../../src/server/parse-json.ts";
import { hostnameOf, pathOf } from "../../src/internal/url.ts";
import { createSseStream } from "../../src/internal/sse.ts";
import { ErrorCode } from "../../src/errors/mod.ts";

describe("url", () => {
  it("splits paths without a URL object", () => {
    assert.equal(pathOf("http://h:1/mcp-lite/v1/calltools?x=1#y"), "/mcp-lite/v1/calltools");
    assert.equal(pathOf("http://h/mcp/"), "/mcp");
    assert.equal(pathOf("http://h"), "/");
    assert.equal(pathOf("http://h/"), "/");
  });

  it("reads host names from URLs and Host values", () => {
    assert.equal(hostnameOf("http://LocalHost:8000/x"), "localhost");
    assert.equal(hostnameOf("http://[::1]:8000/x"), "::1");
    assert.equal(hostnameOf("https://user:pw@example.com/x"), "example.com");
    assert.equal(hostnameOf("example.com:443"), "example.com");
  });
});

describe("parseJson", () => {
  it("parses, drops __proto__ keys and bounds nesting", () => {
    assert.deepEqual(parseJson('{"a":[1,{"b":2}]}', 64), { a: [1, { b: 2 }] });
    const parsed = parseJson('{"__proto__":{"x":1},"y":2}', 64) as Record<string, unknown>;
    assert.equal(Object.hasOwn(parsed, "__proto__"), false);
    assert.equal(parsed.y, 2);
    assert.throws(() => parseJson("[".repeat(70) + "]".repeat(70), 64), { code: ErrorCode.ParseError });
    const bracketsInString = "[".repeat(70) + '"';
    assert.deepEqual(
      parseJson(JSON.stringify([bracketsInString]), 3),
      [bracketsInString],
      "brackets inside strings do not count",
    );
    assert.throws(() => parseJson("{nope}", 64), { code: ErrorCode.ParseError });
  });
});

describe("createSseStream", () => {
  it("frames events, splits multi-line data and stops writing once cancelled", async () => {
    let cancelled = false;
    const stream = createSseStream((w) => {
      w.event("one");
      w.event("two\nlines", "named", "7");
      w.comment("hi");
      return Promise.resolve();
    }, { heartbeatMs: 0, onCancel: () => (cancelled = true) });
    const text = await new Response(stream).text();
    assert.equal(text, "data: one\n\nid: 7\nevent: named\ndata: two\ndata: lines\n\n: hi\n\n");
    assert.equal(cancelled, false);
    const endless = createSseStream(() => new Promise(() => {}), {
      heartbeatMs: 5,
      onCancel: () => (cancelled = true),
    });
    const reader = endless.getReader();
    assert.match(new TextDecoder().decode((await reader.read()).value), /^: keep-alive/);
    await reader.cancel();
    assert.equal(cancelled, true);
  });
});
