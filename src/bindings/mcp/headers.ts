/**
 * The HTTP headers of the 2026-07-28 revision (SEP-2243) that mirror the body: `Mcp-Method`,
 * `Mcp-Name` and `Mcp-Param-*`, with their `=?base64?…?=` encoding. Names are case-insensitive (the
 * `Headers` API sees to that), values case-sensitive, surrounding whitespace dropped. Any mismatch
 * is a 400 with -32020.
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import type { JsonRpcRequest } from "../jsonrpc.ts";
import {
  decodeHeaderValue,
  type HeaderParam,
  METHOD_HEADER,
  NAME_HEADER,
  NAME_SOURCES,
  PARAM_HEADER_PREFIX,
} from "../../internal/mcp-wire.ts";

export { decodeHeaderValue, METHOD_HEADER, NAME_HEADER, PARAM_HEADER_PREFIX };

const DECIMAL = /^-?\d+(?:\.\d+)?$/;

function mismatch(message: string, header: string): ProtocolError {
  return new ProtocolError("header_mismatch", `Header mismatch: ${message}`, { data: { header } });
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
export function checkParamHeaders(
  declared: readonly HeaderParam[],
  args: Record<string, unknown>,
  headers: Headers,
): void {
  for (const d of declared) {
    let value: unknown = args;
    for (const key of d.path) {
      value = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    }
    const text = typeof value === "string"
      ? value
      : typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))
      ? String(value)
      : undefined;
    if (text === undefined) continue; // null, absent, or not a primitive: argument validation speaks
    const header = `Mcp-Param-${d.header}`;
    const raw = headers.get(PARAM_HEADER_PREFIX + d.header);
    if (raw === null) {
      throw mismatch(`${header} is missing but arguments.${d.path.join(".")} is ${JSON.stringify(value)}`, header);
    }
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) throw mismatch(`${header} has an invalid =?base64?…?= value`, header);
    const equal = typeof value === "number" && DECIMAL.test(decoded) ? Number(decoded) === value : decoded === text;
    if (!equal) {
      throw mismatch(
        `${header} says ${JSON.stringify(decoded)} but arguments.${d.path.join(".")} is ${JSON.stringify(value)}`,
        header,
      );
    }
  }
}
