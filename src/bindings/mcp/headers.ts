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
import { isObject } from "../../internal/is-object.ts";
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

/**
 * Checks one mirrored header against the body (SEP-2243: a mismatch is -32020, naming the header).
 *
 * @param headers The HTTP headers.
 * @param header The header, as the spec writes it (`Mcp-Name`; `Headers` ignores case).
 * @param where What in the body it mirrors, for the message (`the body's method`, `arguments.region`).
 * @param value That value.
 * @param equal Whether the decoded header says the same.
 * @throws {ProtocolError} `header_mismatch` when the header is missing, wrongly encoded or different.
 */
function checkMirrored(
  headers: Headers,
  header: string,
  where: string,
  value: unknown,
  equal: (decoded: string) => boolean,
): void {
  const raw = headers.get(header);
  const decoded = raw === null ? undefined : decodeHeaderValue(raw);
  if (decoded === undefined || !equal(decoded)) {
    const got = raw === null
      ? "is missing"
      : decoded === undefined
      ? "has an invalid =?base64?…?= value"
      : `says ${JSON.stringify(decoded)}`;
    throw new ProtocolError(
      "header_mismatch",
      `Header mismatch: ${header} ${got} but ${where} is ${JSON.stringify(value)}`,
      { data: { header } },
    );
  }
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
  const method = rpc.method;
  checkMirrored(headers, "Mcp-Method", "the body's method", method, (decoded) => decoded === method);
  const field = NAME_SOURCES.get(method);
  if (field === undefined) return;
  const expected = rpc.params[field];
  if (typeof expected !== "string") return; // the method itself reports the missing field
  checkMirrored(headers, "Mcp-Name", `the body's params.${field}`, expected, (decoded) => decoded === expected);
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
      value = isObject(value) ? value[key] : undefined;
    }
    const text = typeof value === "string"
      ? value
      : typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))
      ? String(value)
      : undefined;
    if (text === undefined) continue; // null, absent, or not a primitive: argument validation speaks
    checkMirrored(
      headers,
      `Mcp-Param-${d.header}`,
      `arguments.${d.path.join(".")}`,
      value,
      // integers compare numerically: `Mcp-Param-N: 1.0` for 1
      (decoded) => typeof value === "number" && DECIMAL.test(decoded) ? Number(decoded) === value : decoded === text,
    );
  }
}
