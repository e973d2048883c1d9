/**
 * The `redeem` system tool's arguments: checked by a fast path (two type checks, the arguments passed on
 * as they came) when well-formed, and by its schema, with the schema's issues, when not.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import { createRedeemTool } from "../../src/tool/redeem-tool.ts";
import type { Registry } from "../../src/core/definitions/registry.ts";

const analyze = defineTool("analyze")
  .describe("Answers with a promise")
  .input(v.object({ id: v.string() }))
  .handle(({ id }, ctx) => ctx.promise({ state: { id } }))
  .redeem(({ id }) => ({ id, rows: 42 }));
const server = createServer({ name: "t", version: "1", secret: "a test secret of at least thirty-two bytes" })
  .tool(analyze);

async function call(name: string, args: unknown): Promise<Record<string, unknown>> {
  const response = await server.fetch(
    new Request("http://localhost/mcp-lite/v1/calltools", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
    }),
  );
  return await response.json();
}

describe("the redeem tool's arguments", () => {
  it("passes well-formed arguments on as they came, without the schema's copy", () => {
    const tool = createRedeemTool({} as Registry);
    for (const args of [{ promise: "mcl1.x" }, { promise: "mcl1.x", cancel: true }, { promise: "mcl1.x", other: 1 }]) {
      const checked = tool.input.validate(args);
      assert.ok(!(checked instanceof Promise) && checked.ok);
      assert.equal(checked.value, args);
    }
  });

  it("redeems a token, an unknown key beside it ignored", async () => {
    const first = await call("analyze", { id: "d1" }) as { result: { _meta: { promise_token: string } } };
    const redeemed = await call("redeem", { promise: first.result._meta.promise_token, note: "x" });
    assert.deepEqual((redeemed.result as { structuredContent: unknown }).structuredContent, { id: "d1", rows: 42 });
  });

  it("refuses malformed arguments with the schema's issues", async () => {
    const cases: [unknown, string, RegExp][] = [
      [{ promise: "" }, "promise", /Expected >=1/],
      [{ promise: 1 }, "promise", /Expected string/],
      [{ promise: "mcl1.x", cancel: "yes" }, "cancel", /Expected boolean/],
      [{}, "promise", /Invalid key|Expected string/],
    ];
    for (const [args, path, message] of cases) {
      const { error } = await call("redeem", args) as {
        error: { code: number; data: { tool: string; issues: { path: string; message: string }[] } };
      };
      assert.equal(error.code, -32602, JSON.stringify(args));
      assert.equal(error.data.tool, "redeem");
      assert.equal(error.data.issues[0].path, path);
      assert.match(error.data.issues[0].message, message);
    }
  });

  it("refuses what is not an object, and reports every bad key in valibot's words", () => {
    const tool = createRedeemTool({} as Registry);
    const issues = (args: unknown) => {
      const checked = tool.input.validate(args);
      assert.ok(!(checked instanceof Promise) && !checked.ok);
      return checked.issues;
    };
    assert.deepEqual(issues(null), [{ path: "", message: "Invalid type: Expected Object but received null" }]);
    assert.deepEqual(issues("s"), [{ path: "", message: 'Invalid type: Expected Object but received "s"' }]);
    assert.deepEqual(issues({ promise: undefined, cancel: 1 }), [
      { path: "promise", message: "Invalid type: Expected string but received undefined" },
      { path: "cancel", message: "Invalid type: Expected boolean but received 1" },
    ]);
  });

  it("lists the same input schema: a non-empty string promise, an optional boolean cancel", () => {
    const schema = createRedeemTool({} as Registry).input.jsonSchema as {
      properties: { promise: { type: string; minLength: number }; cancel: { type: string } };
      required: string[];
    };
    assert.equal(schema.properties.promise.type, "string");
    assert.equal(schema.properties.promise.minLength, 1);
    assert.equal(schema.properties.cancel.type, "boolean");
    assert.deepEqual(schema.required, ["promise"]);
  });
});
