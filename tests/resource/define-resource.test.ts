import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { defineResource } from "../../mod.ts";
import { ToolCallContext } from "../../src/core/call/tool-call-context.ts";
import { contentsFromValue, describeResource } from "../../src/core/definitions/resource.ts";

const ctx = new ToolCallContext("r", new AbortController().signal, { wire: "in-process", headers: new Headers() });

describe("defineResource", () => {
  it("builds a static resource with its metadata; the builder is immutable", () => {
    const base = defineResource("docs://a").mimeType("text/plain");
    const named = base.name("a").title("A").describe("The A").size(3).annotations({ priority: 1 }).meta({ k: 1 });
    const r = named.read(() => "abc");
    assert.equal(r.template, undefined);
    assert.deepEqual(describeResource(r), {
      uri: "docs://a",
      name: "a",
      title: "A",
      description: "The A",
      mimeType: "text/plain",
      size: 3,
      annotations: { priority: 1 },
      _meta: { k: 1 },
    });
    assert.equal(
      base.read(() => "").name,
      "docs://a",
      "the name defaults to the URI; the base builder was not changed",
    );
    assert.ok(Object.isFrozen(r));
  });

  it("types template variables and hands them to the read handler", async () => {
    const r = defineResource("repo://{owner}/{name}/readme").read(({ owner, name }, _ctx, uri) =>
      `${owner}/${name} at ${uri}`
    );
    const vars = r.template!.match("repo://denoland/deno/readme")!;
    assert.equal(
      await r.read(vars, ctx, "repo://denoland/deno/readme"),
      "denoland/deno at repo://denoland/deno/readme",
    );
    assert.deepEqual(describeResource(r), {
      uriTemplate: "repo://{owner}/{name}/readme",
      name: "repo://{owner}/{name}/readme",
    });
  });

  it("checks completers, cache hints, sizes and handlers at definition", () => {
    assert.throws(() => defineResource("x://{a}").complete("b" as "a", () => []).read(() => ""), TypeError);
    assert.throws(() => defineResource("x://a").cache({ ttlMs: 1.5, scope: "public" }), TypeError);
    assert.throws(() => defineResource("x://a").size(-1), TypeError);
    assert.throws(() => defineResource("x://a").name(""), TypeError);
    assert.throws(() => defineResource("x://a").read("text" as never), TypeError);
    assert.throws(() => defineResource("not a uri"), TypeError);
  });
});

describe("contentsFromValue", () => {
  it("turns strings, bytes and entries into contents with the URI and MIME type filled in", () => {
    assert.deepEqual(contentsFromValue("hi", "x://a", "text/plain"), [{
      uri: "x://a",
      text: "hi",
      mimeType: "text/plain",
    }]);
    assert.deepEqual(contentsFromValue(new Uint8Array([104, 105]), "x://a", undefined), [{
      uri: "x://a",
      blob: "aGk=",
    }]);
    assert.deepEqual(
      contentsFromValue([{ text: "a" }, { uri: "x://b", blob: new Uint8Array([0]), mimeType: "m" }], "x://a", "t"),
      [
        { uri: "x://a", mimeType: "t", text: "a" },
        { uri: "x://b", mimeType: "m", blob: "AA==" },
      ],
    );
  });

  it("answers nothing with resource_not_found, never with empty contents", () => {
    for (const value of [undefined, null, []]) {
      assert.throws(
        () => contentsFromValue(value, "x://gone", undefined),
        (e: Error & { code?: string; data?: unknown }) =>
          e.code === "resource_not_found" && JSON.stringify(e.data) === '{"uri":"x://gone"}',
      );
    }
  });

  it("rejects an entry with neither text nor blob", () => {
    assert.throws(() => contentsFromValue({ mimeType: "x" } as never, "x://a", undefined), TypeError);
  });
});
