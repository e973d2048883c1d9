import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { defineTool } from "../../../mod.ts";
import { compileSchema } from "../../../src/core/schema.ts";
import { buildMetadata, metadataHash, UNSTRUCTURED_RESPONSE_SCHEMA } from "../../../src/bindings/webtools/metadata.ts";
import { parseExecuteRequest } from "../../../src/bindings/webtools/envelope.ts";
import { dataFromResult } from "../../../src/bindings/result-data.ts";
import { canonicalJson } from "../../../src/internal/canonical-json.ts";

const info = { name: "w", description: "d", version: "1.0.0" };

describe("buildMetadata", () => {
  it("lists one action per tool, with the unstructured response schema when there is no output schema", () => {
    const plain = defineTool("plain").title("Plain tool").handle(() => "x");
    const meta = buildMetadata(info, [plain], undefined, {});
    assert.deepEqual(meta.actions, [{
      name: "plain",
      description: "Plain tool",
      requestSchema: { type: "object", properties: {} },
      responseSchema: UNSTRUCTURED_RESPONSE_SCHEMA,
    }]);
  });

  it("merges config schemas: the first declaration of a property wins, required is the union, settings are left out", () => {
    const a = defineTool("a").config(v.object({ key: v.string(), depth: v.optional(v.number(), 1) })).handle(() => "");
    const b = defineTool("b").config(v.object({ depth: v.optional(v.number(), 9), mode: v.string() })).handle(() => "");
    const server = compileSchema(v.object({ region: v.string() }), "server config");
    const meta = buildMetadata(info, [a, b], server, { key: "secret" });
    assert.deepEqual(Object.keys(meta.configSchema.properties as object), ["region", "depth", "mode"]);
    assert.deepEqual(meta.configSchema.required, ["region", "mode"]);
    assert.deepEqual(meta.defaultConfig, { depth: 1 });
  });
});

describe("canonicalJson and metadataHash", () => {
  it("give the same text and hash whatever the key order", async () => {
    const one = { b: [{ y: 1, x: 2 }], a: "s" };
    const two = { a: "s", b: [{ x: 2, y: 1 }] };
    assert.equal(canonicalJson(one), '{"a":"s","b":[{"x":2,"y":1}]}');
    assert.equal(await metadataHash(one), await metadataHash(two));
    assert.notEqual(await metadataHash(one), await metadataHash({ ...two, a: "t" }));
    assert.match(await metadataHash(one), /^[0-9a-f]{64}$/);
  });
});

describe("envelope", () => {
  it("parses the POST body and refuses wrong field types", () => {
    assert.deepEqual(
      parseExecuteRequest({ action: "a", version: "1", sessionId: "s", config: {}, request: { x: 1 } }),
      {
        action: "a",
        version: "1",
        sessionId: "s",
        config: {},
        request: { x: 1 },
      },
    );
    assert.throws(() => parseExecuteRequest({ action: "a", version: 1 }), /version must be a string/);
    assert.throws(() => parseExecuteRequest({ action: "" }), /action/);
  });

  it("turns results into data", () => {
    assert.deepEqual(dataFromResult({ content: [], structuredContent: { a: 1 } }), { a: 1 });
    assert.equal(dataFromResult({ content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] }), "ab");
    assert.equal(dataFromResult({ content: [] }), null);
  });
});
