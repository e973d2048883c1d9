/**
 * Serialising, printing, awaiting and comparing a client sends nothing: `client.tools` answers every property that
 * loggers and test frameworks read of an object (`toJSON`, `toString`, `then`, `asymmetricMatch`, `$$typeof`,
 * `nodeType`, Immutable's sentinels, `Symbol.toPrimitive`, `util.inspect.custom`…) as `{}` does, so the server sees no
 * request and no call is left to reject unhandled; a tool whose name is one of them is called with `client.call()`.
 * On Bun and Deno here, on Node 22 through serialise-client-node.ts (an unhandled rejection ends Node's process).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import process from "node:process";
import util from "node:util";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";
import { ROOT, run } from "../helpers/process.ts";
import { probe, PROBES, spiedClient } from "./probes.ts";

/**
 * Lets a call the probes might have started reach the server, and its rejection surface. About time: that no request
 * goes is seen only over a while (no call started means no event to wait for).
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

for (const wire of ["mcp-lite", "mcp"] as const) {
  describe(`a client over ${wire}, serialised, printed and compared`, () => {
    it("sends no request, and prints as {}", async () => {
      const { client, requests, methods } = spiedClient(wire);
      const printed = await probe(client);
      await settle();
      assert.deepEqual(requests, []);
      assert.deepEqual(methods, []);
      assert.equal(printed.json, "{}");
      assert.equal(printed.jsonClient, '{"tools":{},"skills":{},"events":{}}');
      assert.equal(printed.jsonHolder, '{"log":"called","client":{"tools":{},"skills":{},"events":{}}}');
      assert.equal(printed.string, "[object Object]");
      assert.equal(printed.template, "[object Object] [object Object]");
      assert.equal(printed.tag, "[object Object]");
      assert.equal(printed.inspect, "{}");
      assert.match(String(printed.inspectClient), /^Client \{\s+tools: \{\},\s+skills: \{/);
      assert.deepEqual([printed.awaited, printed.keys, printed.spread, printed.deepEqual], [true, [], {}, true]);
      const read = printed.read as Record<string, string>;
      for (const name of PROBES) {
        const expected = ["toString", "valueOf", "constructor", "hasOwnProperty"].includes(String(name))
          ? `function ${String(name) === "constructor" ? "Object" : String(name)}`
          : "undefined";
        assert.equal(read[String(name)], expected, String(name));
      }
    });

    it("deep-equals another client's tools and {}, as a snapshot compares them", async () => {
      const one = spiedClient(wire);
      const other = spiedClient(wire);
      assert.deepStrictEqual(one.client.tools, other.client.tools);
      assert.deepStrictEqual(one.client.tools, {});
      assert.deepStrictEqual({ tools: one.client.tools }, JSON.parse(JSON.stringify({ tools: other.client.tools })));
      if ("Bun" in globalThis) {
        const bun = (globalThis as unknown as {
          Bun: { inspect(v: unknown): string; deepEquals(a: unknown, b: unknown): boolean };
        }).Bun;
        const specifier = "bun:test"; // a variable: Deno does not resolve it
        const { expect } = await import(specifier) as typeof import("node:test") & {
          expect: (
            v: unknown,
          ) => { toEqual(v: unknown): void; toStrictEqual(v: unknown): void; not: { toEqual(v: unknown): void } };
        };
        expect(one.client.tools).toEqual({});
        expect(one.client.tools).toStrictEqual(other.client.tools);
        expect({ tools: one.client.tools }).not.toEqual({ tools: { a: 1 } }); // prints a diff of both
        assert.equal(bun.inspect(one.client.tools), "{}");
        assert.equal(bun.deepEquals(one.client.tools, {}), true);
      }
      if ("Deno" in globalThis) {
        const deno = (globalThis as unknown as { Deno: { inspect(v: unknown): string } }).Deno;
        assert.equal(deno.inspect(one.client.tools), "{}");
        assert.match(deno.inspect(one.client), /tools: \{\}/);
      }
      await settle();
      assert.deepEqual([one.requests, other.requests], [[], []]);
    });

    it("still calls a tool by its shortcut, and a tool named toJSON with client.call()", async () => {
      const { client, methods } = spiedClient(wire);
      assert.equal(await client.tools.echo({ text: "hi" }), "hi");
      assert.equal(client.tools.toJSON, undefined);
      assert.equal(await client.call("toJSON", {}), "a tool named toJSON");
      assert.deepEqual(methods.filter((m) => m.startsWith("tools/call")), ["tools/call echo", "tools/call toJSON"]);
      assert.equal(util.inspect(client.tools), "{}");
    });
  });
}

describe("on Node 22", { skip: ONCE_PER_RUN }, () => {
  it("serialising a client sends nothing and leaves no unhandled rejection to end the process", async (t) => {
    const node = await node22();
    if (!node) return t.skip(NODE22_MISSING);
    const done = await run(node, [`${ROOT}tests/client/serialise-client-node.ts`], 60_000, ROOT, {
      ...process.env,
      NODE_OPTIONS: "--unhandled-rejections=throw",
    });
    assert.equal(done.code, 0, done.stderr);
    const printed = JSON.parse(done.stdout);
    assert.deepEqual(printed.counted, { "mcp-lite": [[], []], mcp: [[], []] });
    assert.equal(printed.json, "{}");
    assert.equal(printed.inspect, "{}");
  });
});
