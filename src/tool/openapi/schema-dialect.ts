/**
 * OpenAPI schemas as plain JSON Schema 2020-12: OpenAPI 3.0's dialect converted (OpenAPI 3.0.3 §4.7.24),
 * and a `$ref` left after dereferencing made permissive where the schema recurses, so a tool's schema
 * never points outside itself; one a body or response names at its root is inlined instead
 * ({@link SchemaConverter.inline}), keeping its properties. Why not `$defs`: Stripe's cycles reach most of
 * its schemas, 302 MB of them that way against 2 MB made permissive where they recurse.
 *
 * @module
 */
import { isObject } from "../../internal/is-object.ts";
import { schemaDigest } from "../../internal/schema-digest.ts";
import type { JsonSchema } from "../../core/schema.ts";

/**
 * Converts schemas of one document, memoising shared subschemas so a large API's schemas are
 * converted (and held) once.
 */
export class SchemaConverter {
  readonly #legacy: boolean;
  readonly #document: unknown;
  readonly #maxBytes: number;
  readonly #done = new WeakMap<object, JsonSchema>();

  /**
   * Creates a converter.
   *
   * @param openapi The document's `openapi` version: `3.0.x` schemas are converted.
   * @param document The dereferenced document, which the references it left (on cycles) point into.
   * @param maxBytes The most characters of JSON a whole parameter's, body's or response's schema takes
   *   ({@link SchemaConverter.inline}); a larger one is cut to the depth that fits.
   */
  constructor(openapi: string, document?: unknown, maxBytes = Infinity) {
    this.#legacy = openapi.startsWith("3.0");
    this.#document = document;
    this.#maxBytes = maxBytes;
  }

  /**
   * Converts the schema of a whole parameter, body or response: one that is itself a reference to a
   * recursive schema is that schema, inlined once, permissive only where it recurses below. One whose JSON
   * would pass the converter's `maxBytes` is cut, level by level, to what fits (`x-digest: true`), wider
   * than the whole, never narrower: a dereferenced schema repeats what it shares in each place.
   *
   * @param schema A (dereferenced) OpenAPI schema.
   * @returns The JSON Schema 2020-12 equivalent.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { SchemaConverter } from "./schema-dialect.ts";
   * const node = { type: "object", properties: { id: { type: "integer" }, parent: { $ref: "#/components/schemas/node" } } };
   * const converter = new SchemaConverter("3.1.0", { components: { schemas: { node } } });
   * const converted = converter.inline({ $ref: "#/components/schemas/node" });
   * const properties = converted.properties as Record<string, { type?: string; description?: string }>;
   * assert.equal(properties.id.type, "integer");
   * assert.match(properties.parent.description ?? "", /^Recursive/);
   * ```
   */
  inline(schema: unknown): JsonSchema {
    const ref = isObject(schema) && typeof schema.$ref === "string" ? schema.$ref : undefined;
    const target = ref === undefined ? undefined : this.#target(ref);
    let converted = this.convert(target ?? schema);
    // What the schema is, by its component's name (`microsoft.graph.group`), where it has no title: the reference
    // named it, and a model (or tool search) reading the inlined schema would not know it otherwise.
    if (target !== undefined && converted.title === undefined) {
      converted = { title: ref!.slice(ref!.lastIndexOf("/") + 1), ...converted };
    }
    return schemaDigest(converted, this.#maxBytes);
  }

  /** The schema a local JSON Pointer (`#/components/schemas/node`, RFC 6901) names in the document. */
  #target(ref: string): Record<string, unknown> | undefined {
    if (!ref.startsWith("#/")) return undefined;
    let at: unknown = this.#document;
    for (const token of ref.slice(2).split("/")) {
      const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
      if (!isObject(at) || !Object.hasOwn(at, key)) return undefined;
      at = at[key];
    }
    return isObject(at) && typeof at.$ref !== "string" ? at : undefined;
  }

  /**
   * Converts a schema.
   *
   * @param schema A (dereferenced) OpenAPI schema.
   * @returns The JSON Schema 2020-12 equivalent.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { SchemaConverter } from "./schema-dialect.ts";
   * const converted = new SchemaConverter("3.0.3").convert({ type: "integer", nullable: true, minimum: 0, exclusiveMinimum: true });
   * assert.deepEqual(converted, { type: ["integer", "null"], exclusiveMinimum: 0 });
   * ```
   */
  convert(schema: unknown): JsonSchema {
    if (!isObject(schema)) return typeof schema === "boolean" ? (schema as unknown as JsonSchema) : {};
    const known = this.#done.get(schema);
    if (known !== undefined) return known;
    const out: JsonSchema = {};
    this.#done.set(schema, out); // set before descending: a cycle reuses the object being built
    if (typeof schema.$ref === "string") {
      out.description = `Recursive: see ${schema.$ref}`; // left by the resolver on a cycle
      return out;
    }
    for (const [key, value] of Object.entries(schema)) out[key] = this.#member(key, value);
    if (this.#legacy) this.#fromLegacy(out);
    return out;
  }

  #member(key: string, value: unknown): unknown {
    switch (key) {
      case "properties":
      case "patternProperties":
      case "$defs":
      case "definitions":
      case "dependentSchemas":
        return isObject(value)
          ? Object.fromEntries(Object.entries(value).map(([k, s]) => [k, this.convert(s)]))
          : value;
      case "items":
      case "additionalProperties":
      case "not":
      case "contains":
      case "propertyNames":
      case "if":
      case "then":
      case "else":
      case "unevaluatedProperties":
      case "unevaluatedItems":
      case "additionalItems":
        return Array.isArray(value) ? value.map((s) => this.convert(s)) : this.convert(value);
      case "allOf":
      case "anyOf":
      case "oneOf":
      case "prefixItems":
        return Array.isArray(value) ? value.map((s) => this.convert(s)) : value;
      default:
        return value;
    }
  }

  #fromLegacy(out: JsonSchema): void {
    if (out.nullable === true) {
      if (typeof out.type === "string") out.type = [out.type, "null"];
      else if (out.type === undefined && !Array.isArray(out.enum)) { /* no type: already accepts null */ }
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
      if (out.type === undefined && (out.oneOf !== undefined || out.anyOf !== undefined || out.allOf !== undefined)) {
        const { nullable: _, ...rest } = out;
        for (const key of Object.keys(out)) delete out[key];
        out.anyOf = [rest, { type: "null" }];
        return;
      }
    }
    delete out.nullable;
    for (const [flag, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]] as const) {
      if (out[flag] === true && typeof out[bound] === "number") {
        out[flag] = out[bound];
        delete out[bound];
      } else if (typeof out[flag] === "boolean") delete out[flag];
    }
    if (out.example !== undefined && out.examples === undefined) {
      out.examples = [out.example];
      delete out.example;
    }
  }
}
