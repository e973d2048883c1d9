import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { argumentsFor, valueFor } from "../../src/cli/arg-values.ts";
import { UsageError } from "../../src/cli/exit-errors.ts";

const tool = {
  name: "search",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string" },
      limit: { type: "integer" },
      ratio: { type: "number" },
      exact: { type: "boolean" },
      tags: { type: "array", items: { type: "string" } },
      filter: { type: "object" },
      mode: { type: "string", enum: ["fast", "deep"] },
      cutoff: { type: ["number", "null"] },
      anything: {},
    },
  },
};

describe("--arg values, read by the input schema", () => {
  it("reads each JSON Schema type", () => {
    const args = argumentsFor(tool, undefined, [
      "query=true",
      "limit=3",
      "ratio=0.5",
      "exact=false",
      'tags=["a","b"]',
      'filter={"year":1999}',
      "mode=deep",
      "cutoff=null",
      "anything=[1]",
    ]);
    assert.deepEqual(args, {
      query: "true",
      limit: 3,
      ratio: 0.5,
      exact: false,
      tags: ["a", "b"],
      filter: { year: 1999 },
      mode: "deep",
      cutoff: null,
      anything: [1],
    });
  });

  it("keeps a string as typed, = signs and spaces included", () => {
    assert.deepEqual(argumentsFor(tool, undefined, ["query= a=b "]), { query: " a=b " });
  });

  it("applies --arg over --args", () => {
    assert.deepEqual(argumentsFor(tool, '{"query": "x", "limit": 1}', ["limit=2"]), { query: "x", limit: 2 });
  });

  it("says which value its type cannot read", () => {
    const cases: [string, RegExp][] = [
      ["limit=1.5", /^limit: "1\.5" is not an integer$/],
      ["ratio=", /^ratio: "" is not a number$/],
      ["exact=yes", /^exact: "yes" is not a boolean \(true or false\)$/],
      ["tags=a,b", /^tags: "a,b" is not a JSON array$/],
      ["filter=[]", /^filter: "\[\]" is not a JSON object$/],
      ["mode=slow", /^mode: "slow" is not one of "fast", "deep"$/],
      ["cutoff=soon", /^cutoff: "soon" is not a number or null$/],
    ];
    for (const [pair, message] of cases) {
      assert.throws(
        () => argumentsFor(tool, undefined, [pair]),
        (e: Error) => e instanceof UsageError && message.test(e.message),
      );
    }
  });

  it("refuses unknown keys, pairs without =, and --args that is not a JSON object", () => {
    assert.throws(() => argumentsFor(tool, undefined, ["nope=1"]), /search has no argument "nope" \(it takes query, /);
    assert.throws(() => argumentsFor(tool, undefined, ["limit"]), /--arg takes key=value/);
    assert.throws(() => argumentsFor(tool, "[1]", []), /--args must be a JSON object/);
    assert.throws(() => argumentsFor(tool, "{", []), /--args is not JSON/);
  });

  it("takes any key when the schema allows additional properties", () => {
    const open = { name: "open", inputSchema: { type: "object", properties: {}, additionalProperties: true } };
    assert.deepEqual(argumentsFor(open, undefined, ["n=1", "s=hello"]), { n: 1, s: "hello" });
  });

  it("tries the non-string branches of anyOf before the string", () => {
    assert.equal(valueFor({ anyOf: [{ type: "string" }, { type: "number" }] }, "7", "x"), 7);
    assert.equal(valueFor({ anyOf: [{ type: "string" }, { type: "number" }] }, "seven", "x"), "seven");
  });
});
