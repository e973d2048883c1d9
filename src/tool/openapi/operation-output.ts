/**
 * An operation's output schema: its success response's JSON schema (OpenAPI 3.1.1 §4.8.16, §4.8.17) as the object
 * schema MCP requires of `outputSchema` (MCP 2025-11-25, Tools, Output Schema), a non-object one wrapped as
 * `{ result }`, and the check of a response against it (the first mismatch, by JSON Pointer). Why: docs/guides/openapi.md.
 *
 * @module
 */
import { Validator } from "@cfworker/json-schema";
import type { JsonSchema } from "../../core/schema.ts";
import { isObject } from "../../internal/is-object.ts";
import { isJsonMediaType } from "./request-body.ts";
import type { SchemaConverter } from "./schema-dialect.ts";

/** An operation's output: the schema listed as `outputSchema`, and whether the response body is wrapped. */
export interface OperationOutput {
  /** The object schema listed as the tool's `outputSchema`. */
  readonly schema: JsonSchema;
  /** `true` when the body is not an object and answers as `{ result: body }`. */
  readonly wrapped: boolean;
  /** The status code (or `2XX`, `default`) of the response the schema comes from. */
  readonly status: string;
}

/** The property a non-object response body is wrapped in. */
export const WRAPPED_KEY = "result";

// Issues reported for a container only because something inside it failed; the inner issue says why.
const CONTAINER_KEYWORDS = new Set(["properties", "items", "prefixItems", "allOf", "$ref", "additionalItems"]);

/**
 * The output of an operation, or `undefined` when it has none a tool can promise: no success response, or a success
 * response whose body is not JSON only (a `204` beside a `201`, `text/plain` beside `application/json`), which
 * could not be answered with the structured result MCP requires of a tool that lists an output schema.
 *
 * @param responses The operation's Responses Object (dereferenced).
 * @param converter Converts schemas to JSON Schema 2020-12.
 * @returns The output, or `undefined`.
 */
export function operationOutput(responses: unknown, converter: SchemaConverter): OperationOutput | undefined {
  if (!isObject(responses)) return undefined;
  const success = successStatuses(Object.keys(responses));
  let chosen: { status: string; schema: unknown } | undefined;
  for (const status of success) {
    const media = jsonMedia(responses[status]);
    if (media === undefined) return undefined;
    chosen ??= { status, schema: media.schema };
  }
  if (chosen === undefined) return undefined;
  const converted = converter.inline(chosen.schema ?? {});
  if (converted.type === "object") return { schema: converted, wrapped: false, status: chosen.status };
  if (objectOnly(converted)) return { schema: { type: "object", ...converted }, wrapped: false, status: chosen.status };
  const schema: JsonSchema = { type: "object", properties: { [WRAPPED_KEY]: converted }, required: [WRAPPED_KEY] };
  return { schema, wrapped: true, status: chosen.status };
}

/**
 * Whether a schema without a `type` accepts objects only: an `allOf` with an object member, or an `anyOf`/`oneOf` of
 * objects only (GitHub's `users/get-by-username`: a private or a public user), which need no wrapping.
 */
function objectOnly(schema: JsonSchema, depth = 0): boolean {
  if (schema.type === "object") return true;
  if (schema.type !== undefined || depth > 8) return false;
  const members = (key: string) => Array.isArray(schema[key]) ? (schema[key] as unknown[]).filter(isObject) : [];
  const each = (list: Record<string, unknown>[]) => list.map((s) => objectOnly(s as JsonSchema, depth + 1));
  if (each(members("allOf")).some(Boolean)) return true;
  const alternatives = [...members("anyOf"), ...members("oneOf")];
  return alternatives.length > 0 && each(alternatives).every(Boolean);
}

/**
 * The success responses in the order they are preferred: `200`, `201`, the other `2xx` codes, the `2XX` range
 * (OpenAPI 3.1.1 §4.8.16.2), then `default`, which covers "responses other than the ones declared", so it is a
 * success response only when no success code or range is declared.
 */
function successStatuses(codes: readonly string[]): string[] {
  const rank = (code: string) => code === "200" ? 0 : code === "201" ? 1 : 2;
  const exact = codes.filter((c) => /^2\d\d$/.test(c)).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const range = codes.filter((c) => /^2xx$/i.test(c));
  const success = [...exact, ...range];
  return success.length > 0 ? success : codes.includes("default") ? ["default"] : [];
}

/**
 * The JSON Media Type Object (`application/json`, `…+json`) of a Response Object whose content is JSON only: one that
 * may also answer another media type (`text/plain`, XML) could answer a success no structured result carries.
 */
function jsonMedia(response: unknown): { schema: unknown } | undefined {
  if (!isObject(response) || !isObject(response.content)) return undefined;
  const types = Object.keys(response.content);
  if (types.length === 0 || !types.every(isJsonMediaType)) return undefined;
  const media = response.content[types[0]];
  return { schema: isObject(media) ? media.schema : undefined };
}

/**
 * Checks structured results against an output schema, building the validator on the first check, so that a
 * tool never called costs nothing.
 *
 * @param schema The output schema (JSON Schema 2020-12).
 * @returns A check that gives the first mismatch (a JSON Pointer into the value and what is wrong), or `undefined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outputCheck } from "./operation-output.ts";
 * const check = outputCheck({ type: "object", properties: { id: { type: "integer" } } });
 * assert.equal(check({ id: 1 }), undefined);
 * assert.equal(check({ id: "1" })?.path, "/id");
 * ```
 */
export function outputCheck(schema: JsonSchema): (value: unknown) => { path: string; message: string } | undefined {
  let validator: Validator | undefined;
  return (value) => {
    validator ??= new Validator(schema as never, "2020-12", false);
    const result = validator.validate(value);
    if (result.valid) return undefined;
    const first = result.errors.find((e) => !CONTAINER_KEYWORDS.has(e.keyword)) ?? result.errors[0];
    return { path: first.instanceLocation.replace(/^#/, ""), message: first.error };
  };
}
