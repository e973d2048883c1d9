/**
 * One object schema for an operation's inputs: its path, query and header parameters and request body merged into
 * the properties of one object (OpenAPI 3.1.1 §4.8.12, §4.8.13). A JSON object body's properties join the top level,
 * any other body is `body`; a parameter whose name the body uses becomes `{name}__{in}`; cookies are left out. The
 * object is closed, so a misspelt argument is refused rather than silently dropped by the API; what the body's
 * `additionalProperties` describes, or anything with `unknownArguments: "forward"`, goes into the body.
 * Why: docs/guides/openapi.md.
 *
 * @module
 */
import { isObject } from "../../internal/is-object.ts";
import type { JsonSchema } from "../../core/schema.ts";
import { isJsonMediaType, type PropertyEncoding, propertyEncoding } from "./request-body.ts";
import type { SchemaConverter } from "./schema-dialect.ts";

/** Where an input goes in the HTTP request. */
export interface InputSlot {
  /** The property of the arguments. */
  readonly key: string;
  /** Its place in the request. */
  readonly in: "path" | "query" | "header" | "body" | "bodyProperty";
  /** The parameter's or body property's own name. */
  readonly name: string;
  /** The parameter's `style` (OpenAPI 3.1.1 §4.8.12.4), defaulted for its place. */
  readonly style: string;
  /** The parameter's `explode`, defaulted for its style. */
  readonly explode: boolean;
  /** The parameter's `allowReserved` (query parameters): RFC 3986 reserved characters sent unencoded. */
  readonly allowReserved: boolean;
}

/** An operation's merged input: its schema and where each property goes. */
export interface OperationInput {
  /** The object schema of the arguments. */
  readonly schema: JsonSchema;
  /** Where each property goes. */
  readonly slots: readonly InputSlot[];
  /** The request body's media type, when it has one. */
  readonly mediaType: string | undefined;
  /** The body's Encoding Objects by property name (OpenAPI 3.1.0 §4.8.15), for form and multipart bodies. */
  readonly encoding: Readonly<Record<string, PropertyEncoding>>;
  /** Whether an argument no slot names goes into the object body (else the schema has refused it). */
  readonly forwardsUnknown: boolean;
}

/** What to do with an argument the operation does not describe, when its object body is open. */
export type UnknownArguments = "refuse" | "forward";

interface Candidate {
  readonly slot: Omit<InputSlot, "key">;
  readonly schema: JsonSchema;
  readonly required: boolean;
}

const PARAMETER_PLACES = new Set(["path", "query", "header"]);
// Bodies whose object properties join the input, besides JSON (OpenAPI 3.1.0 §4.8.14.4, §4.8.14.5).
const STRUCTURED = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

interface BodyInput {
  readonly candidates: Candidate[];
  readonly mediaType: string;
  readonly encoding: Record<string, PropertyEncoding>;
  /**
   * What the body takes beyond the properties it names: nothing (`false`), anything (`true`: no
   * `additionalProperties`, or `true`, or `{}`), or what a schema describes.
   */
  readonly additional: boolean | JsonSchema;
}

/**
 * Merges the parameters (path-level first, overridden by the operation's own) and the request body.
 *
 * @param pathParameters The Path Item's parameters.
 * @param operation The Operation Object (dereferenced).
 * @param converter Converts schemas to JSON Schema 2020-12.
 * @param unknownArguments Whether an open body takes the arguments no part describes (default: refused).
 * @returns The merged input.
 */
export function operationInput(
  pathParameters: unknown,
  operation: Record<string, unknown>,
  converter: SchemaConverter,
  unknownArguments: UnknownArguments = "refuse",
): OperationInput {
  const byKey = new Map<string, Record<string, unknown>>();
  for (const list of [pathParameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const p of list) if (isObject(p) && typeof p.name === "string") byKey.set(`${p.in}:${p.name}`, p);
  }
  const candidates: Candidate[] = [];
  for (const p of byKey.values()) {
    const place = String(p.in);
    if (!PARAMETER_PLACES.has(place)) continue;
    const style = typeof p.style === "string" ? p.style : place === "query" ? "form" : "simple";
    const explode = typeof p.explode === "boolean" ? p.explode : style === "form";
    const schema = { ...converter.inline(parameterSchema(p)) };
    if (typeof p.description === "string" && schema.description === undefined) schema.description = p.description;
    candidates.push({
      slot: {
        in: place as InputSlot["in"],
        name: p.name as string,
        style,
        explode,
        allowReserved: p.allowReserved === true,
      },
      schema,
      required: place === "path" || p.required === true,
    });
  }
  const body = requestBody(operation.requestBody, converter);
  if (body !== undefined) candidates.push(...body.candidates);

  const taken = new Map<string, number>();
  for (const c of candidates) taken.set(c.slot.name, (taken.get(c.slot.name) ?? 0) + 1);
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const slots: InputSlot[] = [];
  for (const c of candidates) {
    const inBody = c.slot.in === "bodyProperty" || c.slot.in === "body";
    let key = c.slot.name;
    if (!inBody && taken.get(key)! > 1) key = `${key}__${c.slot.in}`;
    while (Object.hasOwn(properties, key)) key = `${key}_`;
    properties[key] = c.schema;
    if (c.required) required.push(key);
    slots.push({ ...c.slot, key });
  }
  const schema: JsonSchema = { type: "object", properties };
  if (required.length > 0) schema.required = required;
  // An argument nothing describes is refused, not silently dropped (JSON Schema 2020-12 §10.3.2.3), unless the
  // body describes its extra properties or the import forwards them to an open one.
  const additional = body?.additional ?? false;
  const forwardsUnknown = additional !== false && (additional !== true || unknownArguments === "forward");
  if (!forwardsUnknown) schema.additionalProperties = false;
  else if (additional !== true) schema.additionalProperties = additional;
  return { schema, slots, mediaType: body?.mediaType, encoding: body?.encoding ?? {}, forwardsUnknown };
}

function parameterSchema(p: Record<string, unknown>): unknown {
  if (p.schema !== undefined) return p.schema;
  if (isObject(p.content)) {
    const media = Object.values(p.content)[0];
    if (isObject(media)) return media.schema;
  }
  return {};
}

function requestBody(
  body: unknown,
  converter: SchemaConverter,
): BodyInput | undefined {
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const types = Object.keys(body.content);
  const mediaType = types.find(isJsonMediaType) ?? types.find((t) => STRUCTURED.has(t)) ?? types[0];
  if (mediaType === undefined) return undefined;
  const media = body.content[mediaType];
  const schema = converter.inline(isObject(media) ? media.schema : undefined);
  const bodyRequired = body.required === true;
  const description = typeof body.description === "string" ? body.description : undefined;
  const structured = isJsonMediaType(mediaType) || STRUCTURED.has(mediaType);
  const encoding = isObject(media) && isObject(media.encoding) ? encodingOf(media.encoding) : {};
  if (structured && isObject(schema.properties) && (schema.type === "object" || schema.type === undefined)) {
    const own = new Set(Array.isArray(schema.required) ? schema.required as string[] : []);
    const candidates = Object.entries(schema.properties).map(([name, property]): Candidate => ({
      slot: { in: "bodyProperty", name, style: "form", explode: true, allowReserved: false },
      schema: property as JsonSchema,
      required: bodyRequired && own.has(name),
    }));
    return { candidates, mediaType, encoding, additional: additionalOf(schema) };
  }
  const whole = description !== undefined && schema.description === undefined ? { ...schema, description } : schema;
  return {
    candidates: [{
      slot: { in: "body", name: "body", style: "form", explode: true, allowReserved: false },
      schema: whole,
      required: bodyRequired,
    }],
    mediaType,
    encoding,
    additional: false,
  };
}

/** What an object body takes beyond its named properties (JSON Schema 2020-12 §10.3.2.3, §11.3). */
function additionalOf(schema: JsonSchema): boolean | JsonSchema {
  if (schema.additionalProperties === false || schema.unevaluatedProperties === false) return false;
  const extra = schema.additionalProperties;
  return isObject(extra) && Object.keys(extra).length > 0 ? extra as JsonSchema : true;
}

/** The Encoding Objects of a form or multipart body, resolved. */
function encodingOf(encoding: Record<string, unknown>): Record<string, PropertyEncoding> {
  const out: Record<string, PropertyEncoding> = {};
  for (const [name, e] of Object.entries(encoding)) {
    if (isObject(e)) out[name] = propertyEncoding(e);
  }
  return out;
}
