/**
 * Icons (MCP 2025-11-25, `Icon`; SEP-973) are checked where they are declared: a client fetches or
 * renders what a server lists, so only image URLs it can load safely pass, and a mistake fails at
 * definition, naming its owner and the icon, not on a client's screen.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer, definePrompt, defineResource, defineTool } from "../../mod.ts";
import { checkIcons, MAX_DATA_URI } from "../../src/core/definitions/icon.ts";

const PNG = "data:image/png;base64,iVBORw0KGgo=";

describe("icons, checked at definition", () => {
  it("accepts https: URLs, image data: URIs, http: on loopback, and copies them frozen", () => {
    const given = [
      { src: "https://example.com/a.svg", mimeType: "image/svg+xml", sizes: ["any"], theme: "dark" as const },
      { src: PNG, sizes: ["16x16", "48x48"] },
      { src: "http://localhost:8000/icon.png" },
      { src: "http://127.0.0.1/icon.png" },
    ];
    const icons = checkIcons(given, 'tool "a"');
    assert.deepEqual(icons, given);
    assert.ok(Object.isFrozen(icons) && Object.isFrozen(icons[0]) && Object.isFrozen(icons[0].sizes));
    assert.notEqual(icons[0], given[0], "a copy: changing the option later changes nothing served");
  });

  for (
    const [src, why] of [
      ["javascript:alert(1)", /src must be an https: URL or an image data: URI/],
      ["JAVASCRIPT:alert(1)", /src must be an https: URL/],
      ["file:///etc/passwd", /src must be an https: URL/],
      ["http://example.com/a.png", /http: on localhost only/],
      ["ftp://example.com/a.png", /src must be an https: URL/],
      ["https:relative.png", /src must be an https: URL/],
      ["/icons/a.png", /src must be an https: URL/],
      ["data:text/html;base64,PHNjcmlwdD4=", /an image data: URI/],
      ["data:,hello", /an image data: URI/],
      [`data:image/png;base64,${"A".repeat(MAX_DATA_URI)}`, /src is limited to 65536 characters/],
    ] as const
  ) {
    it(`refuses src ${src.slice(0, 40)}`, () => {
      assert.throws(() => defineTool("t").icons([{ src }]), (error: Error) => {
        assert.ok(error instanceof TypeError);
        assert.match(error.message, /^tool "t" icon 0: /);
        assert.match(error.message, why);
        return true;
      });
    });
  }

  it("refuses a MIME type that is not an image's, a malformed size, and an unknown theme", () => {
    const src = "https://example.com/a.png";
    assert.throws(() => checkIcons([{ src, mimeType: "text/html" }], "x"), /mimeType must be an image\/\* type/);
    assert.throws(() => checkIcons([{ src, sizes: ["48"] }], "x"), /sizes must be strings like "48x48"/);
    assert.throws(() => checkIcons([{ src, sizes: ["0x0"] }], "x"), /sizes/);
    assert.throws(() => checkIcons([{ src, theme: "blue" as "dark" }], "x"), /theme must be "light" or "dark"/);
    assert.throws(() => checkIcons(42 as never, "x"), TypeError);
    assert.throws(() => checkIcons([{ src: 42 as never }], "x"), /x icon 0: src must be/);
  });

  it("checks them on the server, prompts, resources and templates too, naming the owner", () => {
    const bad = [{ src: "javascript:alert(1)" }];
    assert.throws(() => createServer({ name: "s", version: "1", icons: bad }), /^TypeError: createServer\(\) icon 0/);
    assert.throws(() => definePrompt("p").icons(bad), /^TypeError: prompt "p" icon 0/);
    assert.throws(() => defineResource("docs://a").icons(bad), /^TypeError: resource docs:\/\/a icon 0/);
    assert.throws(() => defineResource("docs://{id}").icons(bad), /^TypeError: resource docs:\/\/\{id\} icon 0/);
    assert.throws(() => createServer({ name: "s", version: "1", websiteUrl: "javascript:x" }), /websiteUrl/);
  });
});
