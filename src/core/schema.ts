/**
 * Schemas as the DSL accepts them: valibot first, any Standard Schema that can give JSON Schema, or a
 * raw JSON Schema object. Each is turned, once, into a JSON Schema plus a validator.
 *
 * @module
 */
// Valibot documents its own types; `@ignore` tells `deno doc --lint` they are not ours to export.
/** @ignore */
import * as v from "valibot";
import { toJsonSchema } from "@valibot/to-json-schema";
import { isObject } from "../internal/is-object.ts";
import {
  fromStandard,
  settle,
  type StandardResult,
  type ValidationIssue,
  type ValidationResult,
} from "./definitions/standard-result.ts";

export type { StandardResult, ValidationIssue, ValidationResult };

/** A JSON Schema object, as sent on the wire. */
export type JsonSchema = { [key: string]: unknown };

/** The part of the Standard Schema v1 interface this SDK uses (copied, as the spec intends). */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly "~standard": {
    /** The spec version. */
    readonly version: 1;
    /** The library that made the schema. */
    readonly vendor: string;
    /** Validates a value. */
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    /** Phantom types. */
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    /** Standard JSON Schema converters, when the library offers them. */
    readonly jsonSchema?: {
      readonly input: (options: { target: string }) => Record<string, unknown>;
      readonly output: (options: { target: string }) => Record<string, unknown>;
    };
  };
}

/** Anything the DSL accepts as a schema. */
export type SchemaInput = v.GenericSchema | v.GenericSchemaAsync | StandardSchemaV1 | JsonSchema;

/** `true` for a schema the DSL accepts as such (not `any`, which could be anything). */
type IsSchema<T> = 0 extends (1 & T) ? false
  : T extends v.GenericSchema | v.GenericSchemaAsync | StandardSchemaV1 ? true
  : false;

/**
 * What a raw shape of schemas (`{ city: v.string() }`, the official SDK's habit) must have to pass as a
 * schema: a property it lacks, so passing one fails to compile with this message. Any other schema
 * needs nothing more.
 *
 * @typeParam S The schema given.
 */
export type NotAShape<S> = IsSchema<S> extends true ? unknown
  : true extends { [K in keyof S]-?: IsSchema<S[K]> }[keyof S]
    ? { readonly "~error": "a shape of schemas is not a schema: wrap it in v.object({ … })" }
  : unknown;

/** The type a caller sends for a schema (before defaults and transforms). */
export type InferSchemaInput<S> = S extends v.GenericSchema | v.GenericSchemaAsync ? v.InferInput<S>
  : S extends StandardSchemaV1<infer I, unknown> ? I
  : Record<string, unknown>;

/** The type a handler receives for a schema (after defaults and transforms). */
export type InferSchemaOutput<S> = S extends v.GenericSchema | v.GenericSchemaAsync ? v.InferOutput<S>
  : S extends StandardSchemaV1<unknown, infer O> ? O
  : Record<string, unknown>;

/** A schema made ready for use: its JSON Schema and its validator. */
export interface CompiledSchema {
  /** The JSON Schema sent to clients. */
  readonly jsonSchema: JsonSchema;
  /** Validates a value; synchronous unless the schema is async. */
  readonly validate: (value: unknown) => ValidationResult | Promise<ValidationResult>;
}

/**
 * Turns a schema into a JSON Schema and a validator, once, when a tool is defined.
 *
 * @param schema The schema.
 * @param where Names the tool and the role, for error messages (e.g. `tool "search" input`).
 * @returns The compiled schema.
 * @throws {TypeError} When the schema cannot be expressed as JSON Schema (the message names the property),
 *   or is a raw shape of schemas (`{ city: v.string() }`) rather than `v.object()` of it.
 */
export function compileSchema(schema: SchemaInput, where: string): CompiledSchema {
  if (isValibot(schema)) return compileValibot(schema, where);
  if (isStandard(schema)) return compileStandard(schema, where);
  if (isObject(schema)) {
    const key = Object.keys(schema).find((k) => isValibot(schema[k]) || isStandard(schema[k]));
    if (key !== undefined) {
      throw new TypeError(
        `${where}: { ${key}: … } is a shape of schemas, not a schema: wrap it in v.object({ … })`,
      );
    }
    return compileRaw(schema, where);
  }
  throw new TypeError(`${where}: expected a valibot schema, a Standard Schema or a JSON Schema object`);
}

function isValibot(schema: unknown): schema is v.GenericSchema | v.GenericSchemaAsync {
  return isObject(schema) && schema.kind === "schema" &&
    "~run" in schema;
}

function isStandard(schema: unknown): schema is StandardSchemaV1 {
  return isObject(schema) && "~standard" in schema;
}

function compileValibot(schema: v.GenericSchema | v.GenericSchemaAsync, where: string): CompiledSchema {
  let jsonSchema: JsonSchema;
  try {
    jsonSchema = toJsonSchema(schema as v.GenericSchema, { target: "draft-2020-12", errorMode: "throw" }) as JsonSchema;
  } catch (error) {
    const path = findUnconvertible(schema, "");
    const at = path === undefined ? "" : path === "" ? " (the root)" : ` property "${path}"`;
    throw new TypeError(`${where}${at} cannot be expressed as JSON Schema: ${(error as Error).message}`);
  }
  delete jsonSchema.$schema; // 2020-12 is MCP's default dialect; some clients reject the key.
  // The schema's own `~standard.validate` runs it as `v.safeParse` (or `v.safeParseAsync`) does, with the global
  // config, and answers its dataset: a promise for an async schema.
  const run = (schema as unknown as { "~standard": { validate(value: unknown): Dataset | Promise<Dataset> } })[
    "~standard"
  ].validate;
  return { jsonSchema, validate: (value) => settle(run(value), fromValibot) };
}

/** What a valibot schema's run answers: its output, or its issues. */
type Dataset = v.OutputDataset<unknown, v.BaseIssue<unknown>>;

function fromValibot(result: Dataset): ValidationResult {
  if (!result.issues) return { ok: true, value: result.value };
  return {
    ok: false,
    issues: result.issues.map((issue) => ({ path: v.getDotPath(issue) ?? "", message: issue.message })),
  };
}

/** Finds the dotted path of the first property that cannot be converted, for a useful error. */
function findUnconvertible(schema: v.GenericSchema | v.GenericSchemaAsync, path: string): string | undefined {
  const s = schema as unknown as Record<string, unknown>;
  const children: [string, v.GenericSchema][] = [];
  if (s.entries && typeof s.entries === "object") {
    for (const [key, child] of Object.entries(s.entries as Record<string, v.GenericSchema>)) {
      children.push([path ? `${path}.${key}` : key, child]);
    }
  }
  if (s.wrapped) children.push([path, s.wrapped as v.GenericSchema]);
  if (s.item) children.push([path ? `${path}[]` : "[]", s.item as v.GenericSchema]);
  if (Array.isArray(s.options)) {
    for (const option of s.options as v.GenericSchema[]) children.push([path, option]);
  }
  for (const [childPath, child] of children) {
    if (converts(child)) continue;
    return findUnconvertible(child, childPath) ?? childPath;
  }
  return converts(schema) ? undefined : path;
}

function converts(schema: v.GenericSchema | v.GenericSchemaAsync): boolean {
  try {
    toJsonSchema(schema as v.GenericSchema, { errorMode: "throw" });
    return true;
  } catch {
    return false;
  }
}

function compileStandard(schema: StandardSchemaV1, where: string): CompiledSchema {
  const props = schema["~standard"];
  if (!props.jsonSchema) {
    throw new TypeError(
      `${where}: this ${props.vendor} schema cannot give JSON Schema (it lacks ~standard.jsonSchema); ` +
        `use a valibot schema or pass a JSON Schema object`,
    );
  }
  let jsonSchema: JsonSchema;
  try {
    jsonSchema = { ...props.jsonSchema.input({ target: "draft-2020-12" }) };
  } catch (error) {
    throw new TypeError(`${where} cannot be expressed as JSON Schema: ${(error as Error).message}`);
  }
  delete jsonSchema.$schema;
  return {
    jsonSchema,
    validate: (value) => settle(props.validate(value), fromStandard),
  };
}

const JSON_TYPES: Record<string, (value: unknown) => boolean> = {
  string: (x) => typeof x === "string",
  number: (x) => typeof x === "number" && Number.isFinite(x),
  integer: (x) => Number.isInteger(x),
  boolean: (x) => typeof x === "boolean",
  object: isObject,
  array: (x) => Array.isArray(x),
  null: (x) => x === null,
};

/**
 * A raw JSON Schema is passed through untouched. It is validated shallowly: the root is an object, the
 * `required` properties are present and each top-level property has its declared primitive `type`.
 */
function compileRaw(schema: JsonSchema, where: string): CompiledSchema {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const checks = Object.entries(properties).flatMap(([key, prop]) => {
    const types = (Array.isArray(prop?.type) ? prop.type : [prop?.type]).filter((t): t is string =>
      typeof t === "string" && t in JSON_TYPES
    );
    return types.length ? [{ key, types }] : [];
  });
  if (typeof schema !== "object") throw new TypeError(`${where}: a JSON Schema must be an object`);
  return {
    jsonSchema: schema,
    validate: (value) => {
      if (!JSON_TYPES.object(value)) return { ok: false, issues: [{ path: "", message: "Expected an object" }] };
      const record = value as Record<string, unknown>;
      const issues: ValidationIssue[] = [];
      for (const key of required) {
        if (!Object.hasOwn(record, key)) issues.push({ path: key, message: "Required property is missing" });
      }
      for (const { key, types } of checks) {
        if (Object.hasOwn(record, key) && record[key] !== undefined && !types.some((t) => JSON_TYPES[t](record[key]))) {
          issues.push({ path: key, message: `Expected ${types.join(" or ")}` });
        }
      }
      return issues.length ? { ok: false, issues } : { ok: true, value };
    },
  };
}
