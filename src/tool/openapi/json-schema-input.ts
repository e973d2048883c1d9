/**
 * A JSON Schema as a tool's input, validated in full (JSON Schema 2020-12, with `@cfworker/json-schema`,
 * which needs no code generation and so runs on Workers too) rather than the shallow check a raw schema
 * object gets: a call with bad arguments is refused before any request leaves.
 *
 * @module
 */
import { type OutputUnit, Validator } from "@cfworker/json-schema";
import type { JsonSchema, StandardSchemaV1 } from "../../core/schema.ts";
import { suggestName } from "../../core/definitions/suggest.ts";
import { isObject } from "../../internal/is-object.ts";

// Issues reported for a container only because something inside it failed; the inner issue says why.
const CONTAINER_KEYWORDS = new Set(["properties", "items", "prefixItems", "allOf", "$ref", "additionalItems"]);

/**
 * Wraps a JSON Schema as a Standard Schema that validates it fully and gives the schema back as its
 * JSON Schema. The validator is built on the first call, so importing a large API costs nothing per
 * tool that is never called.
 *
 * @param schema The JSON Schema (2020-12) of an object.
 * @returns The Standard Schema, for `defineTool().input()`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonSchemaInput } from "./json-schema-input.ts";
 * const input = jsonSchemaInput({ type: "object", properties: { n: { type: "integer", minimum: 1 } } });
 * const result = await input["~standard"].validate({ n: 0 });
 * assert.equal(result.issues?.[0].path?.[0], "n");
 * ```
 */
export function jsonSchemaInput(schema: JsonSchema): StandardSchemaV1<Record<string, unknown>> {
  let validator: Validator | undefined;
  return {
    "~standard": {
      version: 1,
      vendor: "mcplite-openapi",
      validate(value: unknown) {
        validator ??= new Validator(schema as never, "2020-12", false);
        const result = validator.validate(value);
        if (result.valid) return { value: value as Record<string, unknown> };
        const leaves = result.errors.filter((e) => !CONTAINER_KEYWORDS.has(e.keyword));
        // A property a closed object does not name fails the `false` schema `additionalProperties` stands for, at
        // that property: one issue there, saying so (the object's own additionalProperties error says it again).
        const closed = new Set(
          result.errors.filter((e) => e.keyword === "additionalProperties").map((e) => e.instanceLocation),
        );
        const unknown = (e: OutputUnit) => e.keyword === "false" && closed.has(parentOf(e.instanceLocation));
        const kept = leaves.filter((e) => !(e.keyword === "additionalProperties" && closed.has(e.instanceLocation)));
        const issues = (kept.length > 0 ? kept : result.errors).map((e) => issueOf(schema, e, unknown(e)));
        return { issues };
      },
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
}

/** The instance location of what holds a location: `#/a/b` → `#/a`, `#/a` → `#`. */
function parentOf(instanceLocation: string): string {
  return instanceLocation.slice(0, Math.max(1, instanceLocation.lastIndexOf("/")));
}

function issueOf(schema: JsonSchema, unit: OutputUnit, unknown: boolean): { message: string; path: string[] } {
  const path = pathOf(unit.instanceLocation);
  if (!unknown) return { message: unit.error, path };
  const name = path.at(-1)!;
  const described = propertiesAt(schema, path.slice(0, -1));
  const closest = described === undefined ? undefined : suggestName(name, Object.keys(described));
  const hint = closest === undefined ? "" : `; did you mean "${closest}"?`;
  return { message: `Unknown argument "${name}": not a property this input takes${hint}`, path };
}

/** The `properties` of the object schema at an instance path, followed through `properties` and `items`. */
function propertiesAt(schema: unknown, path: readonly string[]): Record<string, unknown> | undefined {
  let at = schema;
  for (const step of path) {
    if (!isObject(at)) return undefined;
    at = isObject(at.properties) && Object.hasOwn(at.properties, step) ? at.properties[step] : at.items;
  }
  return isObject(at) && isObject(at.properties) ? at.properties : undefined;
}

function pathOf(instanceLocation: string): string[] {
  const pointer = instanceLocation.replace(/^#/, "");
  const path = pointer === ""
    ? []
    : pointer.slice(1).split("/").map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"));
  return path;
}
