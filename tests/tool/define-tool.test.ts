import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { createServer, definePrompt, defineTool } from "../../mod.ts";
import type { PromiseRetry, StandardSchemaV1 } from "../../src/types.ts";

describe("defineTool", () => {
  it("builds immutably: each method returns a new builder and shared partial builders stay untouched", () => {
    const base = defineTool("lookup").describe("base");
    const a = base.title("A").handle(() => "a");
    const b = base.title("B").annotations({ readOnlyHint: true }).handle(() => "b");
    assert.equal(a.title, "A");
    assert.equal(b.title, "B");
    assert.equal(a.annotations, undefined);
    assert.deepEqual(b.annotations, { readOnlyHint: true });
    assert.ok(Object.isFrozen(a));
  });

  it("records @type, title, description, annotations and meta", () => {
    const tool = defineTool("search_documents")
      .type("query")
      .title("Search")
      .describe("Search through available documents")
      .annotations({ readOnlyHint: true })
      .annotations({ openWorldHint: false })
      .meta({ team: "docs" })
      .handle(() => "ok");
    assert.equal(tool.category, "query");
    assert.equal(tool.description, "Search through available documents");
    assert.deepEqual(tool.annotations, { readOnlyHint: true, openWorldHint: false });
    assert.deepEqual(tool.meta, { team: "docs" });
    assert.equal(tool.mode, "handle");
  });

  it("computes the JSON Schema once, at definition time, from valibot", () => {
    const tool = defineTool("search")
      .input(v.object({
        query: v.pipe(v.string(), v.description("Search query")),
        limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 10),
      }))
      .handle(() => "");
    assert.deepEqual(tool.input.jsonSchema, {
      type: "object",
      properties: {
        query: { type: "string", description: "Search query" },
        limit: { type: "integer", minimum: 1, maximum: 100, default: 10 },
      },
      required: ["query"],
    });
    assert.equal(tool.input.jsonSchema, tool.input.jsonSchema, "the same object every time");
  });

  it("gives tools without input an empty object schema", () => {
    const tool = defineTool("ping").handle(() => "pong");
    assert.deepEqual(tool.input.jsonSchema, { type: "object", properties: {} });
  });

  it("fails at definition time, naming the tool and the property, for a schema with no JSON form", () => {
    assert.throws(
      () => defineTool("when").input(v.object({ at: v.date() })),
      (e: Error) => e instanceof TypeError && /tool "when" input/.test(e.message) && /property "at"/.test(e.message),
    );
    assert.throws(
      () =>
        defineTool("nested").input(v.object({
          outer: v.object({ inner: v.pipe(v.string(), v.transform((s) => s.length)) }),
        })),
      (e: Error) => /tool "nested" input property "outer.inner"/.test(e.message) && /transform/.test(e.message),
    );
    assert.throws(
      () => defineTool("checked").input(v.object({ n: v.pipe(v.number(), v.check((n) => n % 2 === 0)) })),
      /tool "checked" input property "n".*check/,
    );
  });

  it("requires object schemas for input and output", () => {
    assert.throws(() => defineTool("s").input(v.string()), /must describe an object/);
    assert.throws(() => defineTool("s").output(v.array(v.number())), /object schema/);
  });

  it("refuses a raw shape of schemas, at compile time and at definition, saying to wrap it in v.object()", () => {
    const shape = { city: v.string(), days: v.number() }; // the official SDK's habit
    // @ts-expect-error a raw shape is not a schema
    assert.throws(() => defineTool("raw_in").input(shape), /tool "raw_in" input: .*wrap it in v\.object\(/);
    // @ts-expect-error a raw shape is not a schema
    assert.throws(() => defineTool("raw_out").output(shape), /tool "raw_out" output: .*wrap it in v\.object\(/);
    // @ts-expect-error a raw shape is not a schema
    assert.throws(() => defineTool("raw_cfg").config(shape), /tool "raw_cfg" config: .*wrap it in v\.object\(/);
    // @ts-expect-error a raw shape is not a schema
    assert.throws(() => definePrompt("raw_args").args(shape), /prompt "raw_args" arguments: .*v\.object\(/);
    // @ts-expect-error a raw shape is not a schema
    assert.throws(() => createServer({ name: "s", version: "1" }).config(shape), /server config: .*v\.object\(/);
    // A JSON Schema whose properties merely look alike is still accepted.
    defineTool("json_ok").input({ type: "object", properties: { city: { type: "string" } } });
  });

  it("warns once, at registration, about a tool with neither description nor title", () => {
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (message: unknown) => void warnings.push(message);
    try {
      const bare = defineTool("bare_tool_for_warning").handle(() => "x");
      assert.equal(warnings.length, 0, "nothing at definition: the server's logger is not known yet");
      createServer({ name: "a", version: "1" }).tool(bare);
      createServer({ name: "b", version: "1" }).tool(bare); // the same tool again: no second console warning
      createServer({ name: "c", version: "1" })
        .tool(defineTool("titled_tool_for_warning").title("Titled").handle(() => "x"))
        .tool(defineTool("described_tool_for_warning").describe("Says x").handle(() => "x"));
    } finally {
      console.warn = warn;
    }
    assert.equal(warnings.length, 1);
    assert.match(String(warnings[0]), /tool "bare_tool_for_warning" has no \.describe\(\)/);
  });

  it("checks tool names: 1-64 characters of [A-Za-z0-9_.-]", () => {
    for (const good of ["a", "get_weather", "v1.search-docs", "x".repeat(64)]) defineTool(good);
    for (const bad of ["", "x".repeat(65), "has space", "slash/name", "ümlaut", "semi;colon"]) {
      assert.throws(() => defineTool(bad), /invalid tool name/, bad);
    }
  });

  it("checks .longRunning({ retry }) as a server adds the tool: 1 to 100 runs, a backoff from 0 to an hour", () => {
    const tool = defineTool("reindex").describe("Reindexes");
    const added = (retry: PromiseRetry) =>
      createServer({ name: "s", version: "1", secret: "a secret of at least thirty-two bytes!" })
        .tool(tool.longRunning({ retry }).defer(() => ""));
    assert.deepEqual(added({ attempts: 3, backoff: 500 }).tools[0]?.longRunning, {
      retry: { attempts: 3, backoff: 500 },
    });
    added({ attempts: 3, backoff: { type: "exponential", delayMs: 100, maxMs: 60_000 } });
    const wrong = [
      { attempts: 0 },
      { attempts: 1.5 },
      { attempts: 101 },
      { attempts: 2, backoff: -1 },
      { attempts: 2, backoff: 3_600_001 },
      { attempts: 2, backoff: { type: "exponential", delayMs: -1 } },
      { attempts: 2, backoff: { type: "exponential", delayMs: 10, maxMs: Infinity } },
      { attempts: 2, backoff: { type: "linear", delayMs: 10 } },
      { attempts: 2, backoff: { type: "exponential" } },
      { attempts: 2, backoff: null },
    ];
    for (const retry of wrong) {
      assert.throws(() => added(retry as PromiseRetry), /tool "reindex": retry takes attempts 1–100/);
    }
  });

  it("accepts a raw JSON Schema untouched and validates it shallowly", async () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer" } },
      required: ["city"],
    };
    const tool = defineTool("forecast").input(schema).handle((args) => JSON.stringify(args));
    assert.equal(tool.input.jsonSchema, schema);
    assert.deepEqual(await tool.input.validate({ city: "Oslo", days: 3 }), {
      ok: true,
      value: { city: "Oslo", days: 3 },
    });
    const bad = await tool.input.validate({ days: 1.5 });
    assert.equal(bad.ok, false);
    assert.deepEqual(!bad.ok && bad.issues.map((i) => i.path).sort(), ["city", "days"]);
    assert.equal((await tool.input.validate({ toString: "x", city: "a" })).ok, true, "inherited keys do not count");
  });

  it("accepts a Standard Schema that can give JSON Schema, and refuses one that cannot", async () => {
    const standard: StandardSchemaV1<{ n: number }> = {
      "~standard": {
        version: 1,
        vendor: "test",
        validate: (value) =>
          typeof (value as { n?: unknown }).n === "number"
            ? { value: value as { n: number } }
            : { issues: [{ message: "n must be a number", path: [{ key: "n" }] }] },
        jsonSchema: {
          input: () => ({ type: "object", properties: { n: { type: "number" } }, required: ["n"] }),
          output: () => ({ type: "object" }),
        },
      },
    };
    const tool = defineTool("std").input(standard).handle(({ n }) => String(n * 2));
    assert.deepEqual(tool.input.jsonSchema.required, ["n"]);
    assert.deepEqual(await tool.input.validate({ n: "x" }), {
      ok: false,
      issues: [{ path: "n", message: "n must be a number" }],
    });
    const opaque = {
      "~standard": { version: 1 as const, vendor: "opaque", validate: (value: unknown) => ({ value }) },
    };
    assert.throws(() => defineTool("opaque").input(opaque), /cannot give JSON Schema/);
  });

  it("validates with the schema's output type: defaults are applied before the handler sees the args", async () => {
    const tool = defineTool("d").input(v.object({ n: v.optional(v.number(), 7) })).handle(({ n }) => String(n));
    assert.deepEqual(await tool.input.validate({}), { ok: true, value: { n: 7 } });
  });

  it("supports async valibot schemas", async () => {
    const tool = defineTool("async_check")
      .input(v.objectAsync({ id: v.pipeAsync(v.string(), v.minLength(2)) }))
      .handle(({ id }) => id);
    assert.equal((await tool.input.validate({ id: "a" })).ok, false);
    assert.equal((await tool.input.validate({ id: "ab" })).ok, true);
  });
});
