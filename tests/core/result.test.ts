import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { audio, embeddedResource, image, resourceLink, text } from "../../mod.ts";
import { isContentBlock, isToolResult } from "../../src/core/results/result.ts";
import { resultFromValue } from "../../src/core/results/result.ts";
import { suggestName } from "../../src/core/definitions/suggest.ts";

describe("results", () => {
  it("shapes plain values: strings as text, objects as structuredContent plus JSON text", () => {
    assert.deepEqual(resultFromValue("hi"), { content: [{ type: "text", text: "hi" }] });
    assert.deepEqual(resultFromValue({ a: 1 }), {
      content: [{ type: "text", text: '{"a":1}' }],
      structuredContent: { a: 1 },
    });
    assert.deepEqual(resultFromValue(42), { content: [{ type: "text", text: "42" }] });
    assert.deepEqual(resultFromValue(undefined), { content: [] });
  });

  it("never mistakes a plain object shaped like a block for a block", () => {
    const lookalike = { type: "text", text: "user data" };
    assert.equal(isContentBlock(lookalike), false);
    assert.deepEqual(resultFromValue(lookalike).structuredContent, lookalike);
  });

  it("builds every kind of content block, with bytes encoded as base64", () => {
    assert.equal(isContentBlock(text("x")), true);
    assert.deepEqual(image(new Uint8Array([1, 2, 3]), "image/png"), {
      type: "image",
      data: "AQID",
      mimeType: "image/png",
    });
    assert.deepEqual(audio("UklGRg==", "audio/wav"), { type: "audio", data: "UklGRg==", mimeType: "audio/wav" });
    assert.deepEqual(embeddedResource("test://r", "body", "text/plain"), {
      type: "resource",
      resource: { uri: "test://r", text: "body", mimeType: "text/plain" },
    });
    assert.deepEqual(embeddedResource("test://b", new Uint8Array([255])).resource, { uri: "test://b", blob: "/w==" });
    assert.deepEqual(resourceLink("file:///a.txt", "a.txt", { mimeType: "text/plain" }), {
      type: "resource_link",
      uri: "file:///a.txt",
      name: "a.txt",
      mimeType: "text/plain",
    });
    assert.equal(JSON.stringify(text("x")), '{"type":"text","text":"x"}', "the brand is not serialised");
    assert.equal(isToolResult({ content: [] }), false);
  });

  it("encodes large binaries without overflowing the argument stack", () => {
    const big = new Uint8Array(200_000).fill(65);
    assert.equal(atob(image(big, "image/png").data).length, 200_000);
  });
});

describe("suggestName", () => {
  it("suggests close names and stays quiet for unrelated ones", () => {
    const names = ["search_documents", "analyze_dataset", "redeem"];
    assert.equal(suggestName("search_document", names), "search_documents");
    assert.equal(suggestName("SEARCH", names), "search_documents");
    assert.equal(suggestName("redem", names), "redeem");
    assert.equal(suggestName("weather", names), undefined);
  });
});
