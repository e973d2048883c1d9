import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as v from "valibot";
import { toJsonSchema } from "@valibot/to-json-schema";
import { valibotToJsonSchema } from "../../src/core/valibot-json-schema.ts";
import { defineTool } from "../../mod.ts";

type Schema = v.GenericSchema | v.GenericSchemaAsync;

/** What tools listed before: the library's draft 2020-12 output, without `$schema`. */
function library(schema: Schema): Record<string, unknown> {
  const json = toJsonSchema(schema as v.GenericSchema, { target: "draft-2020-12", errorMode: "throw" });
  delete json.$schema;
  return json as Record<string, unknown>;
}

type Tree = { name: string; children: Tree[] };
const tree = (): v.GenericSchema<Tree> => {
  const node: v.GenericSchema<Tree> = v.object({ name: v.string(), children: v.array(v.lazy(() => node)) });
  return node;
};

/** Schemas the library converts, each built fresh (a lazy getter is remembered per schema). */
const CONVERTED: Record<string, () => Schema> = {
  // Primitives and wrappers.
  "boolean": () => v.boolean(),
  "null": () => v.null(),
  "number": () => v.number(),
  "string": () => v.string(),
  "any": () => v.any(),
  "unknown": () => v.unknown(),
  "never": () => v.never(),
  "optional": () => v.optional(v.string()),
  "optional with default": () => v.optional(v.number(), 3),
  "optional with default function": () => v.optional(v.array(v.string()), () => ["a"]),
  "exact optional with default": () => v.exactOptional(v.string(), "x"),
  "undefinedable with default": () => v.undefinedable(v.boolean(), false),
  "nullable": () => v.nullable(v.string()),
  "nullable with default": () => v.nullable(v.string(), "n"),
  "nullish with default": () => v.nullish(v.number(), () => 7),
  "nullable of optional": () => v.nullable(v.optional(v.string(), "in")),
  "optional in pipe": () => v.pipe(v.optional(v.string(), "d"), v.description("with default")),
  // Literals, enums and picklists.
  "literal string": () => v.literal("on"),
  "literal number": () => v.literal(4),
  "literal boolean": () => v.literal(true),
  "picklist of strings": () => v.picklist(["a", "b"]),
  "picklist of numbers": () => v.picklist([1, 2]),
  "picklist mixed": () => v.picklist(["a", 1]),
  "picklist empty": () => v.picklist([]),
  "enum": () => v.enum({ A: "a", B: "b" }),
  "numeric enum": () => v.enum({ One: 1, Two: 2 }),
  // Arrays, tuples, objects and records.
  "array": () => v.array(v.number()),
  "array of objects": () => v.array(v.object({ id: v.string() })),
  "tuple": () => v.tuple([v.string(), v.number()]),
  "loose tuple": () => v.looseTuple([v.string()]),
  "strict tuple": () => v.strictTuple([v.string(), v.boolean()]),
  "tuple with rest": () => v.tupleWithRest([v.string()], v.number()),
  "empty tuple": () => v.tuple([]),
  "object": () => v.object({ a: v.string(), b: v.optional(v.number()), c: v.nullish(v.string()) }),
  "object, exact optional and undefinedable": () =>
    v.object({ a: v.exactOptional(v.string()), b: v.undefinedable(v.string()), c: v.nullable(v.string()) }),
  "empty object": () => v.object({}),
  "loose object": () => v.looseObject({ a: v.string() }),
  "strict object": () => v.strictObject({ a: v.string() }),
  "object with rest": () => v.objectWithRest({ a: v.string() }, v.number()),
  "nested objects": () =>
    v.object({
      user: v.object({
        name: v.pipe(v.string(), v.minLength(1), v.description("The name")),
        tags: v.optional(v.array(v.pipe(v.string(), v.maxLength(10))), []),
        address: v.nullish(v.object({ city: v.string(), zip: v.pipe(v.string(), v.regex(/^\d{5}$/)) })),
      }),
      limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 10),
    }),
  "object with a piped optional entry": () => v.object({ a: v.pipe(v.optional(v.string()), v.minLength(2) as never) }),
  "record": () => v.record(v.string(), v.number()),
  "record with a piped key": () => v.record(v.pipe(v.string(), v.minLength(2)), v.array(v.string())),
  // Unions and intersections.
  "union": () => v.union([v.string(), v.number()]),
  "union of objects": () =>
    v.union([v.object({ kind: v.literal("a"), a: v.string() }), v.object({ kind: v.literal("b"), b: v.number() })]),
  "variant": () =>
    v.variant("kind", [v.object({ kind: v.literal("a"), a: v.string() }), v.object({ kind: v.literal("b") })]),
  "intersect": () => v.intersect([v.object({ a: v.string() }), v.object({ b: v.number() })]),
  // Recursion through lazy.
  "lazy root": () => v.lazy(() => v.string()),
  "recursive tree": () => tree(),
  "recursive tree in an object": () => v.object({ root: tree(), spare: v.optional(tree()) }),
  "one lazy getter used twice": () => {
    const getter = () => v.number();
    return v.object({ a: v.lazy(getter), b: v.lazy(getter) });
  },
  "a lazy target also used directly": () => {
    const leaf = v.object({ x: v.number() });
    return v.object({ a: v.lazy(() => leaf), b: leaf, c: v.lazy(() => v.array(v.lazy(() => leaf))) });
  },
  "mutual recursion": () => {
    const a: v.GenericSchema = v.object({ b: v.optional(v.lazy(() => b)) });
    const b: v.GenericSchema = v.object({ a: v.optional(v.lazy(() => a)) });
    return a;
  },
  // Async schemas convert as their sync twins.
  "async object": () => v.objectAsync({ a: v.string(), b: v.optionalAsync(v.number(), 2) }),
  "async union and array": () => v.unionAsync([v.arrayAsync(v.string()), v.nullableAsync(v.number())]),
  // Actions: metadata.
  "description": () => v.pipe(v.string(), v.description("d")),
  "title": () => v.pipe(v.string(), v.title("t")),
  "examples twice": () => v.pipe(v.string(), v.examples(["a"]), v.examples(["b"])),
  "metadata": () =>
    v.pipe(
      v.string(),
      v.examples(["x"]),
      v.metadata({ deprecated: true, title: "T", description: "D", examples: ["y"], "x-extra": 1 }),
    ),
  "metadata with non-string title": () => v.pipe(v.number(), v.metadata({ title: 1, description: null })),
  "nested pipes": () => v.pipe(v.pipe(v.string(), v.email()), v.maxLength(50), v.description("mail")),
  // Actions: strings.
  "formats": () =>
    v.object({
      email: v.pipe(v.string(), v.email()),
      rfcEmail: v.pipe(v.string(), v.rfcEmail()),
      url: v.pipe(v.string(), v.url()),
      uuid: v.pipe(v.string(), v.uuid()),
      ipv4: v.pipe(v.string(), v.ipv4()),
      ipv6: v.pipe(v.string(), v.ipv6()),
      date: v.pipe(v.string(), v.isoDate()),
      dateTime: v.pipe(v.string(), v.isoDateTime()),
      timestamp: v.pipe(v.string(), v.isoTimestamp()),
      time: v.pipe(v.string(), v.isoTime()),
      base64: v.pipe(v.string(), v.base64()),
    }),
  "pattern actions": () =>
    v.object(Object.fromEntries(
      (["bic", "cuid2", "decimal", "digits", "emoji", "hexadecimal", "hexColor", "isoTimeSecond", "isoWeek"] as const)
        .concat(["mac", "mac48", "mac64", "nanoid", "octal", "slug", "ulid"] as never[])
        .map((name) => [name, v.pipe(v.string(), (v[name] as () => v.GenericValidation)())]),
    )),
  "hash, domain, ksuid, isrc, jws": () =>
    v.object({
      hash: v.pipe(v.string(), v.hash(["sha256"])),
      domain: v.pipe(v.string(), v.domain()),
      ksuid: v.pipe(v.string(), v.ksuid()),
      isrc: v.pipe(v.string(), v.isrc()),
      jws: v.pipe(v.string(), v.jwsCompact()),
    }),
  "regex": () => v.pipe(v.string(), v.regex(/^a+$/)),
  "starts, ends, includes": () =>
    v.object({
      s: v.pipe(v.string(), v.startsWith("a.b")),
      e: v.pipe(v.string(), v.endsWith("(x)")),
      i: v.pipe(v.string(), v.includes("$^[]")),
    }),
  "string lengths": () => v.pipe(v.string(), v.minLength(2), v.maxLength(9), v.minLength(1), v.maxLength(20)),
  "string length": () => v.pipe(v.string(), v.length(4), v.nonEmpty()),
  "string empty": () => v.pipe(v.string(), v.empty()),
  "array lengths": () => v.pipe(v.array(v.string()), v.minLength(1), v.maxLength(3), v.length(2)),
  "array non empty and empty": () =>
    v.object({ a: v.pipe(v.array(v.string()), v.nonEmpty()), b: v.pipe(v.array(v.number()), v.empty()) }),
  // Actions: numbers.
  "number bounds": () => v.pipe(v.number(), v.minValue(0), v.maxValue(10), v.minValue(-1), v.maxValue(20)),
  "exclusive bounds": () => v.pipe(v.number(), v.gtValue(0), v.ltValue(1), v.gtValue(0.5), v.ltValue(2)),
  "integer bounds": () => v.pipe(v.number(), v.integer(), v.minValue(1), v.multipleOf(3)),
  "safe integer": () => v.pipe(v.number(), v.minValue(5), v.safeInteger()),
  "safe integer then bounds": () => v.pipe(v.number(), v.safeInteger(), v.maxValue(9)),
  "value": () => v.pipe(v.number(), v.value(3)),
  "same value twice": () => v.pipe(v.string(), v.value("a"), v.value("a")),
  "literal and same value": () => v.pipe(v.literal("a"), v.value("a")),
  "values": () => v.pipe(v.string(), v.values(["a", "b", "a"])),
  "values intersected": () => v.pipe(v.picklist(["a", "b", "c"]), v.values(["b", "c", "d"] as never)),
  "values disjoint": () => v.pipe(v.picklist(["a"]), v.values(["b"] as never)),
  "not value": () => v.pipe(v.number(), v.notValue(0), v.notValue(1)),
  "not values": () => v.pipe(v.string(), v.notValues(["a", "a", "b"]), v.notValues([])),
  // What metadata writes, later actions and the root read.
  "metadata's type read by a later action": () =>
    v.pipe(v.number(), v.metadata({ type: "string" }), v.minLength(1) as never),
  "metadata's $schema at the root": () => v.pipe(v.object({}), v.metadata({ $schema: "x", $id: "y" })),
  "metadata's bounds then empty and bounds": () =>
    v.pipe(v.string(), v.metadata({ maxLength: -1, minLength: "2" }), v.empty(), v.minLength(3)),
  "metadata's enum then values": () => v.pipe(v.string(), v.metadata({ enum: 0 }), v.values(["a"])),
  "metadata's examples then examples": () =>
    v.pipe(v.string(), v.metadata({ examples: ["a"] }), v.examples(["b"]), v.metadata({ examples: "c" })),
  "enum with a repeated value": () => v.enum({ A: "a", B: "a" }),
  "an entry named __proto__": () => v.object({ ["__proto__"]: v.string(), b: v.number() }),
  "defaults that are not JSON": () =>
    v.object({ at: v.optional(v.string(), () => new Date(0).toISOString()), n: v.nullable(v.number(), null) }),
  "lazy in a union with a default": () => v.optional(v.union([v.lazy(() => v.string()), v.number()]), "x"),
  "strict tuple of optional items": () => v.strictTuple([v.optional(v.string(), "a"), v.nullish(v.number())]),
  "record of lazy": () => v.record(v.string(), v.lazy(() => v.number())),
  "async pipe and lazy": () =>
    v.objectAsync({ a: v.pipeAsync(v.string(), v.email()), b: v.lazyAsync(() => v.number()) }),
  "values then not value on a picklist": () =>
    v.pipe(v.picklist(["a", "b", "c"]), v.values(["a", "b"]), v.notValue("a")),
  // Actions: records' entries.
  "entries": () => v.pipe(v.record(v.string(), v.number()), v.minEntries(1), v.maxEntries(5), v.entries(3)),
  "entries on an object": () => v.pipe(v.looseObject({}), v.maxEntries(2)),
};

/** Schemas and actions the library refuses: the listing must refuse them too. */
const REFUSED: Record<string, () => Schema> = {
  "date": () => v.date(),
  "bigint": () => v.bigint(),
  "undefined": () => v.undefined(),
  "symbol": () => v.symbol(),
  "function": () => v.function(),
  "set": () => v.set(v.string()),
  "map": () => v.map(v.string(), v.number()),
  "instance": () => v.instance(Date),
  "non optional": () => v.nonOptional(v.optional(v.string())),
  "non nullable": () => v.nonNullable(v.nullable(v.string())),
  "custom": () => v.custom<string>((x) => typeof x === "string"),
  "blob": () => v.blob(),
  "promise": () => v.promise(),
  "void": () => v.void(),
  "nan": () => v.nan(),
  "date in an object": () => v.object({ at: v.date() }),
  "date deep inside": () => v.object({ a: v.array(v.union([v.string(), v.object({ b: v.date() })])) }),
  "date in a lazy": () => v.object({ a: v.lazy(() => v.date()) }),
  "literal bigint": () => v.literal(1n),
  "literal symbol": () => v.literal(Symbol("s")),
  "literal NaN": () => v.literal(Number.NaN),
  "picklist with a boolean": () => v.picklist(["a", true] as never),
  "picklist with Infinity": () => v.picklist([1, Infinity]),
  "record with a number key": () => v.record(v.number() as never, v.string()),
  "record with a picklist key": () => v.record(v.picklist(["a", "b"]), v.string()),
  "record with a bigint key and a date value": () => v.record(v.bigint() as never, v.date()),
  "transform": () => v.pipe(v.string(), v.transform((s) => s.length)),
  "check": () => v.pipe(v.number(), v.check((n) => n > 0)),
  "two schemas in a pipe": () => v.pipe(v.string(), v.transform(Number), v.number()),
  "a schema after a pipe's actions": () => v.pipe(v.string(), v.pipe(v.number()) as never),
  "regex with flags": () => v.pipe(v.string(), v.regex(/a/i)),
  "regex after a format pattern": () => v.pipe(v.string(), v.slug(), v.regex(/a/)),
  "starts with after regex": () => v.pipe(v.string(), v.regex(/a/), v.startsWith("b")),
  "ends with after includes": () => v.pipe(v.string(), v.includes("a"), v.endsWith("b")),
  "min length on a number": () => v.pipe(v.number(), v.minLength(1) as never),
  "max length on a union": () => v.pipe(v.union([v.string(), v.array(v.string())]), v.maxLength(3)),
  "length on an object": () => v.pipe(v.object({}), v.length(1) as never),
  "non empty on a record": () => v.pipe(v.record(v.string(), v.string()), v.nonEmpty() as never),
  "empty on a number": () => v.pipe(v.number(), v.empty() as never),
  "negative length": () => v.pipe(v.string(), v.minLength(-1)),
  "min length of undefined": () => v.pipe(v.string(), v.minLength(undefined as never)),
  "fractional max length": () => v.pipe(v.array(v.string()), v.maxLength(1.5)),
  "min value on a string": () => v.pipe(v.string(), v.minValue("a")),
  "max value on a date": () => v.pipe(v.date(), v.maxValue(new Date())),
  "min value infinite": () => v.pipe(v.number(), v.minValue(-Infinity)),
  "gt value on a string": () => v.pipe(v.string(), v.gtValue("a")),
  "lt value NaN": () => v.pipe(v.number(), v.ltValue(Number.NaN)),
  "bigint bound on a number": () => v.pipe(v.number(), v.maxValue(1n as never)),
  "negative min entries": () => v.pipe(v.record(v.string(), v.string()), v.minEntries(-1)),
  "fractional entries": () => v.pipe(v.record(v.string(), v.string()), v.entries(0.5)),
  "value NaN": () => v.pipe(v.number(), v.value(Number.NaN)),
  "value conflicting with a literal": () => v.pipe(v.literal("a"), v.value("b" as never)),
  "two different values": () => v.pipe(v.number(), v.value(1), v.value(2)),
  "values with a bigint": () => v.pipe(v.number(), v.values([1, 2n] as never)),
  "not value Infinity": () => v.pipe(v.number(), v.notValue(Infinity)),
  "not values with NaN": () => v.pipe(v.number(), v.notValues([Number.NaN])),
  "to lower case": () => v.pipe(v.string(), v.toLowerCase()),
  "trim": () => v.pipe(v.string(), v.trim()),
  "credit card": () => v.pipe(v.string(), v.creditCard()),
  "imei": () => v.pipe(v.string(), v.imei()),
  "words": () => v.pipe(v.string(), v.minWords("en", 2)),
  "graphemes": () => v.pipe(v.string(), v.maxGraphemes(3)),
  "brand": () => v.pipe(v.string(), v.brand("Id")),
  "readonly": () => v.pipe(v.array(v.string()), v.readonly()),
  "partial check": () =>
    v.pipe(
      v.object({ a: v.string(), b: v.string() }),
      v.partialCheck([["a"], ["b"]], (x) => x.a === x.b),
    ),
  "async check": () => v.pipeAsync(v.string(), v.checkAsync(() => Promise.resolve(true))),
};

describe("valibotToJsonSchema", () => {
  for (const [name, make] of Object.entries(CONVERTED)) {
    it(`lists ${name} as @valibot/to-json-schema 1.8.0 does, key for key`, () => {
      const expected = library(make());
      const actual = valibotToJsonSchema(make());
      assert.deepEqual(actual, expected);
      assert.equal(JSON.stringify(actual), JSON.stringify(expected), "the same keys in the same order");
    });
  }

  for (const [name, make] of Object.entries(REFUSED)) {
    it(`refuses ${name}, as @valibot/to-json-schema 1.8.0 does`, () => {
      assert.throws(() => library(make()));
      assert.throws(() => valibotToJsonSchema(make()), { message: /^The .* cannot be converted to JSON Schema\.$/ });
    });
  }

  it("makes a new JSON Schema for each call", () => {
    const schema = v.object({ a: v.pipe(v.string(), v.examples(["x"])) });
    const one = valibotToJsonSchema(schema);
    (one.properties as Record<string, { type: string }>).a.type = "number";
    assert.equal((valibotToJsonSchema(schema).properties as Record<string, { type: string }>).a.type, "string");
  });
});

describe("a tool's listed input schema", () => {
  it("names the property a schema cannot express, with the reason", () => {
    const refused = (schema: v.GenericSchema) => {
      try {
        defineTool("t").input(schema);
      } catch (error) {
        assert.ok(error instanceof TypeError);
        return error.message.replace(/^tool "t" input/, "").replace(/ cannot be expressed as JSON Schema: /, " | ");
      }
      assert.fail("the schema was accepted");
    };
    assert.equal(
      refused(v.object({ at: v.date() })),
      ` property "at" | The "date" schema cannot be converted to JSON Schema.`,
    );
    assert.equal(
      refused(v.object({ a: v.array(v.object({ at: v.date() })), b: v.bigint() })),
      ` property "a[].at" | The "date" schema cannot be converted to JSON Schema.`,
    );
    assert.equal(
      refused(v.object({ a: v.optional(v.union([v.string(), v.object({ b: v.pipe(v.string(), v.regex(/x/u)) })])) })),
      ` property "a.b" | The "regex" action's flags cannot be converted to JSON Schema.`,
    );
    assert.equal(
      refused(v.pipe(v.object({ a: v.string() }), v.transform((x) => x))),
      ` (the root) | The "transform" action cannot be converted to JSON Schema.`,
    );
    assert.equal(
      refused(v.object({ m: v.record(v.picklist(["x"]), v.object({ n: v.number() })) })),
      ` property "m" | The "record" schema with a "picklist" key cannot be converted to JSON Schema.`,
    );
    // Inside a recursive schema, the property is named where the converter first meets it.
    const node: v.GenericSchema = v.object({ kids: v.array(v.lazy(() => node)), at: v.date() });
    assert.equal(
      refused(v.object({ tree: node })),
      ` property "tree.kids[].at" | The "date" schema cannot be converted to JSON Schema.`,
    );
  });

  it("lists a recursive schema once, under $defs", () => {
    const tool = defineTool("tree").input(v.object({ root: tree() })).handle(() => "");
    assert.equal(tool.input.jsonSchema.$schema, undefined, "2020-12 is MCP's default dialect");
    assert.deepEqual(Object.keys(tool.input.jsonSchema.$defs as object), ["0"]);
  });
});
