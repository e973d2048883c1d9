/**
 * The HTTP headers of the 2026-07-28 revision (SEP-2243) that mirror the body: `Mcp-Method`,
 * `Mcp-Name` and `Mcp-Param-*`, with their `=?base64?…?=` encoding. Names are case-insensitive (the
 * `Headers` API sees to that), values case-sensitive, surrounding whitespace dropped. Any mismatch
 * is a 400 with -32020.
 *
 * @module
 */
import { ErrorCode, ProtocolError } from "../../core/error.ts";
import type { JsonRpcRequest } from "../../internal/jsonrpc.ts";
import { type ParamHeader, paramHeadersOf } from "../../tool/param-headers.ts";
import type { AnyTool } from "../../tool/tool-def.ts";

/** The method header. */
export const METHOD_HEADER = "mcp-method";
/** The name header. */
export const NAME_HEADER = "mcp-name";
/** The prefix of the parameter headers. */
export const PARAM_HEADER_PREFIX = "mcp-param-";

const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Which body field `Mcp-Name` mirrors, per method. */
const NAME_SOURCES: ReadonlyMap<string, string> = new Map([
  ["tools/call", "name"],
  ["prompts/get", "name"],
  ["resources/read", "uri"],
  ["tasks/get", "taskId"],
  ["tasks/update", "taskId"],
  ["tasks/cancel", "taskId"],
]);

/**
 * Decodes a header value: `=?base64?…?=` carries base64 UTF-8; anything else (including a value with
 * only one of the markers) is literal. Surrounding spaces and tabs are dropped first.
 *
 * @param raw The header value.
 * @returns The value, or `undefined` when the sentinel holds invalid base64 or UTF-8.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeHeaderValue } from "./headers.ts";
 * assert.equal(decodeHeaderValue("=?base64?SGVsbG8=?="), "Hello");
 * assert.equal(decodeHeaderValue("=?base64?SGVsbG8?="), undefined);
 * assert.equal(decodeHeaderValue("  us-west1 "), "us-west1");
 * ```
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = trimOws(raw);
  if (!value.startsWith(SENTINEL_PREFIX) || !value.endsWith(SENTINEL_SUFFIX) || value.length < 11) return value;
  const payload = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!CANONICAL_BASE64.test(payload)) return undefined;
  try {
    const binary = atob(payload);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function trimOws(value: string): string {
  let start = 0, end = value.length;
  while (start < end && (value.charCodeAt(start) === 32 || value.charCodeAt(start) === 9)) start++;
  while (end > start && (value.charCodeAt(end - 1) === 32 || value.charCodeAt(end - 1) === 9)) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

function mismatch(message: string, header: string): ProtocolError {
  return new ProtocolError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`, { data: { header } });
}

/**
 * Checks `Mcp-Method` (every request) and `Mcp-Name` (requests whose body names a tool, prompt,
 * resource or task) against the body.
 *
 * @param rpc The request.
 * @param headers The HTTP headers.
 * @throws {ProtocolError} `header_mismatch` when a header is missing, wrongly encoded or different.
 */
export function checkStandardHeaders(rpc: JsonRpcRequest, headers: Headers): void {
  const method = headers.get(METHOD_HEADER);
  if (method === null) throw mismatch(`Mcp-Method is missing (the body's method is "${rpc.method}")`, "Mcp-Method");
  const decodedMethod = decodeHeaderValue(method);
  if (decodedMethod !== rpc.method) {
    throw mismatch(
      decodedMethod === undefined
        ? "Mcp-Method has an invalid =?base64?…?= value"
        : `Mcp-Method says "${decodedMethod}" but the body's method is "${rpc.method}"`,
      "Mcp-Method",
    );
  }
  const field = NAME_SOURCES.get(rpc.method);
  if (field === undefined) return;
  const expected = rpc.params[field];
  if (typeof expected !== "string") return; // the method itself reports the missing field
  const name = headers.get(NAME_HEADER);
  if (name === null) throw mismatch(`Mcp-Name is missing (the body's params.${field} is "${expected}")`, "Mcp-Name");
  const decoded = decodeHeaderValue(name);
  if (decoded === undefined) throw mismatch("Mcp-Name has an invalid =?base64?…?= value", "Mcp-Name");
  if (decoded !== expected) {
    throw mismatch(`Mcp-Name says "${decoded}" but the body's params.${field} is "${expected}"`, "Mcp-Name");
  }
}

const declaredByTool = new WeakMap<AnyTool, readonly ParamHeader[]>();

/**
 * Returns the `x-mcp-header` declarations of a tool, computed once per tool.
 *
 * @param tool The tool.
 * @returns The declarations.
 */
export function paramHeadersFor(tool: AnyTool): readonly ParamHeader[] {
  let declared = declaredByTool.get(tool);
  if (declared === undefined) {
    declared = paramHeadersOf(tool.input.jsonSchema, `tool "${tool.name}" input`);
    declaredByTool.set(tool, declared);
  }
  return declared;
}

/**
 * Checks the `Mcp-Param-*` headers of a tool call: each declared property that has a value in the
 * arguments must come with its header, equal once decoded (integers compare numerically). A `null` or
 * absent value needs no header.
 *
 * @param declared The tool's declarations.
 * @param args The call's arguments.
 * @param headers The HTTP headers.
 * @throws {ProtocolError} `header_mismatch` when a header is missing, wrongly encoded or different.
 */
export function checkParamHeaders(declared: readonly ParamHeader[], args: Record<string, unknown>, headers: Headers): void {
  for (const d of declared) {
    let value: unknown = args;
    for (const key of d.path) value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    const text = typeof value === "string"
      ? value
      : typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))
      ? String(value)
      : undefined;
    if (text === undefined) continue; // null, absent, or not a primitive: argument validation speaks
    const header = `Mcp-Param-${d.name}`;
    const raw = headers.get(PARAM_HEADER_PREFIX + d.name);
    if (raw === null) throw mismatch(`${header} is missing but arguments.${d.path.join(".")} is ${JSON.stringify(value)}`, header);
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) throw mismatch(`${header} has an invalid =?base64?…?= value`, header);
    const equal = typeof value === "number" && DECIMAL.test(decoded) ? Number(decoded) === value : decoded === text;
    if (!equal) {
      throw mismatch(`${header} says ${JSON.stringify(decoded)} but arguments.${d.path.join(".")} is ${JSON.stringify(value)}`, header);
    }
  }
}
