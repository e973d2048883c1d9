/**
 * MCP's request headers (SEP-2243): `Mcp-Name` and `Mcp-Param-*` values with the `=?base64?…?=`
 * sentinel, and the rules that make a tool's `x-mcp-header` annotations valid.
 *
 * @module
 */

/** A tool argument mirrored into an `Mcp-Param-{header}` header. */
export interface HeaderParam {
  /** The property names from the schema root down to the annotated property. */
  readonly path: readonly string[];
  /** The header name suffix. */
  readonly header: string;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PLAIN = /^[\x20-\x7E]*$/;
const HEADER_TYPES = new Set(["string", "integer", "boolean"]);
/** Keywords whose values are data, not schemas: never searched for annotations. */
const DATA_KEYWORDS = new Set(["const", "default", "enum", "examples"]);

/**
 * Encodes a header value: plain visible ASCII goes as is; anything else (non-ASCII, control
 * characters, leading or trailing spaces, or a value that looks like the sentinel) as
 * `=?base64?<base64 of the UTF-8>?=`.
 *
 * @param value The value.
 * @returns The header value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodeHeaderValue } from "./mcp-headers.ts";
 * assert.equal(encodeHeaderValue("us-west1"), "us-west1");
 * assert.equal(encodeHeaderValue(" padded "), "=?base64?IHBhZGRlZCA=?=");
 * ```
 */
export function encodeHeaderValue(value: string): string {
  const looksEncoded = value.startsWith("=?base64?") && value.endsWith("?=");
  if (PLAIN.test(value) && value.trim() === value && !looksEncoded) return value;
  let binary = "";
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/**
 * Reads a tool's `x-mcp-header` annotations. An annotation is valid only on a string, integer or
 * boolean property reached from the root through `properties` alone, with a non-empty RFC 9110
 * token as its value, unique (case-insensitively) within the tool.
 *
 * @param inputSchema The tool's input schema.
 * @returns The mirrored parameters, or `undefined` when an annotation is invalid (the tool must then
 *   be dropped).
 */
export function headerParamsOf(inputSchema: unknown): HeaderParam[] | undefined {
  const found: HeaderParam[] = [];
  if (!walk(inputSchema, [], true, found)) return undefined;
  const seen = new Set<string>();
  for (const param of found) {
    const key = param.header.toLowerCase();
    if (seen.has(key)) return undefined;
    seen.add(key);
  }
  return found;
}

/** Collects annotations; returns `false` on the first invalid one. */
function walk(node: unknown, path: string[], direct: boolean, found: HeaderParam[]): boolean {
  if (Array.isArray(node)) return node.every((item) => walk(item, path, false, found));
  if (typeof node !== "object" || node === null) return true;
  const schema = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(schema)) {
    if (key === "x-mcp-header") {
      if (!direct || path.length === 0 || !isHeaderName(value) || !isHeaderType(schema.type)) return false;
      found.push({ path, header: value });
    } else if (key === "properties" && typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const [name, property] of Object.entries(value)) {
        if (!walk(property, [...path, name], direct, found)) return false;
      }
    } else if (!DATA_KEYWORDS.has(key) && typeof value === "object" && value !== null) {
      if (!walk(value, path, false, found)) return false;
    }
  }
  return true;
}

function isHeaderName(value: unknown): value is string {
  return typeof value === "string" && TOKEN.test(value);
}

function isHeaderType(type: unknown): boolean {
  if (typeof type === "string") return HEADER_TYPES.has(type);
  if (!Array.isArray(type)) return false;
  const types = type.filter((t) => t !== "null");
  return types.length > 0 && types.every((t) => typeof t === "string" && HEADER_TYPES.has(t));
}

/**
 * Builds the `Mcp-Param-*` headers of a call: strings encoded, integers in decimal, booleans as
 * `true`/`false`; absent and `null` values send no header.
 *
 * @param params The tool's mirrored parameters.
 * @param args The call's arguments.
 * @param headers Receives the headers.
 */
export function setParamHeaders(params: readonly HeaderParam[], args: Record<string, unknown>, headers: Headers): void {
  for (const param of params) {
    let value: unknown = args;
    for (const key of param.path) {
      value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    }
    const text = typeof value === "string"
      ? encodeHeaderValue(value)
      : typeof value === "boolean"
      ? String(value)
      : typeof value === "number" && Number.isFinite(value)
      ? String(value)
      : undefined;
    if (text !== undefined) headers.set(`mcp-param-${param.header}`, text);
  }
}
