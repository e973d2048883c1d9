import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { assertAbsoluteUri } from "../../src/core/definitions/absolute-uri.ts";
import { isUriTemplate, parseUriTemplate } from "../../src/core/definitions/uri-template.ts";

describe("parseUriTemplate (RFC 6570 level 1)", () => {
  it("matches URIs and decodes the variables", () => {
    const t = parseUriTemplate("test://template/{id}/data");
    assert.deepEqual(t.variables, ["id"]);
    assert.deepEqual(t.match("test://template/123/data"), { id: "123" });
    assert.deepEqual(t.match("test://template/a%2Fb/data"), { id: "a/b" });
    assert.equal(t.match("test://template/123/other"), undefined);
    assert.equal(t.match("test://template//data"), undefined, "a variable is never empty");
    assert.equal(t.match("test://template/a/b/data"), undefined, "a variable holds no raw slash");
    assert.equal(t.match("test://template/%E0%A4%A/data"), undefined, "malformed escapes do not match");
  });

  it("handles several variables, dots in names and literal regex characters", () => {
    const t = parseUriTemplate("db://{schema}.{table}/rows?(x)+{page.no}");
    assert.deepEqual(t.match("db://public.users/rows?(x)+2"), { schema: "public", table: "users", "page.no": "2" });
  });

  it("expands, percent-encoding all but unreserved characters", () => {
    const t = parseUriTemplate("users://{id}/profile");
    assert.equal(t.expand({ id: "a b/c~d_e.f-g!" }), "users://a%20b%2Fc~d_e.f-g%21/profile");
    assert.deepEqual(t.match(t.expand({ id: "é/ü" })), { id: "é/ü" });
  });

  it("rejects higher levels, malformed braces, repeats and relative templates", () => {
    for (
      const bad of [
        "x://{+path}",
        "x://{/p}",
        "x://{?q}",
        "x://{a*}",
        "x://{a:3}",
        "x://{a",
        "x://a}",
        "x://{a}/{a}",
        "x://{}",
        "/rel/{a}",
      ]
    ) {
      assert.throws(() => parseUriTemplate(bad), TypeError, bad);
    }
  });
});

describe("isUriTemplate and assertAbsoluteUri", () => {
  it("tells templates from URIs and checks for a scheme", () => {
    assert.equal(isUriTemplate("a://{b}"), true);
    assert.equal(isUriTemplate("a://b"), false);
    assert.doesNotThrow(() => assertAbsoluteUri("file:///tmp/x", "t"));
    assert.throws(() => assertAbsoluteUri("no-scheme", "t"), TypeError);
    assert.throws(() => assertAbsoluteUri("a://with space", "t"), TypeError);
  });
});
