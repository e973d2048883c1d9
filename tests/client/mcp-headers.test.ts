/**
 * SEP-2243 header values and `x-mcp-header` validity, as the conformance scenarios spell them out.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeHeaderValue, headerParamsOf } from "../../src/client/mcp-headers.ts";

const decode = (value: string) =>
  new TextDecoder().decode(Uint8Array.from(atob(value.slice(9, -2)), (c) => c.charCodeAt(0)));

describe("encodeHeaderValue", () => {
  it("sends plain visible ASCII, internal spaces and the empty string as they are", () => {
    for (const value of ["us-west1", "us west 1", "", "SELECT * FROM users"]) {
      assert.equal(encodeHeaderValue(value), value);
    }
  });

  it("base64-encodes non-ASCII, control characters, edge whitespace and sentinel look-alikes", () => {
    for (
      const value of [
        "Hello, 世界",
        "line1\nline2",
        "line1\r\nline2",
        "\tindented",
        " padded ",
        " lead",
        "trail ",
        "=?base64?abc?=",
      ]
    ) {
      const encoded = encodeHeaderValue(value);
      assert.match(encoded, /^=\?base64\?[A-Za-z0-9+/=]*\?=$/);
      assert.equal(decode(encoded), value);
    }
  });
});

describe("headerParamsOf", () => {
  const tool = (properties: Record<string, unknown>) => ({ type: "object", properties });

  it("collects valid annotations on string, integer and boolean properties, nested through properties", () => {
    assert.deepEqual(
      headerParamsOf(tool({
        region: { type: "string", "x-mcp-header": "Region" },
        priority: { type: "integer", "x-mcp-header": "Priority" },
        verbose: { type: ["boolean", "null"], "x-mcp-header": "Verbose" },
        where: { type: "object", properties: { zone: { type: "string", "x-mcp-header": "Zone" } } },
        plain: { type: "string", default: { "x-mcp-header": "NotAnAnnotation" } },
      })),
      [
        { path: ["region"], header: "Region" },
        { path: ["priority"], header: "Priority" },
        { path: ["verbose"], header: "Verbose" },
        { path: ["where", "zone"], header: "Zone" },
      ],
    );
  });

  it("rejects every invalid form the conformance suite lists", () => {
    const invalid: Record<string, unknown>[] = [
      tool({ v: { type: "string", "x-mcp-header": "" } }),
      tool({ v: { type: "object", "x-mcp-header": "Data" } }),
      tool({ v: { type: "array", items: { type: "string" }, "x-mcp-header": "Items" } }),
      tool({ v: { type: "null", "x-mcp-header": "Nil" } }),
      tool({ v: { type: "number", "x-mcp-header": "Score" } }),
      tool({ a: { type: "string", "x-mcp-header": "Region" }, b: { type: "string", "x-mcp-header": "Region" } }),
      tool({ a: { type: "string", "x-mcp-header": "MyField" }, b: { type: "string", "x-mcp-header": "myfield" } }),
      tool({ v: { type: "string", "x-mcp-header": "My Region" } }),
      tool({ v: { type: "string", "x-mcp-header": "Region:Primary" } }),
      tool({ v: { type: "string", "x-mcp-header": "Région" } }),
      tool({ v: { type: "string", "x-mcp-header": "Region\t1" } }),
      tool({ v: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } }),
      tool({ v: { anyOf: [{ type: "string", "x-mcp-header": "V" }] } }),
      {
        type: "object",
        $defs: { id: { type: "string", "x-mcp-header": "Id" } },
        properties: { id: { $ref: "#/$defs/id" } },
      },
    ];
    for (const schema of invalid) assert.equal(headerParamsOf(schema), undefined, JSON.stringify(schema));
  });
});
