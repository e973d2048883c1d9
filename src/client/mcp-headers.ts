/**
 * MCP's request headers (SEP-2243): `Mcp-Name` and `Mcp-Param-*` values with the `=?base64?…?=`
 * sentinel, and the rules that make a tool's `x-mcp-header` annotations valid.
 *
 * @module
 */
import { encodeHeaderValue, findHeaderParams, type HeaderParam, PARAM_HEADER_PREFIX } from "../internal/mcp-wire.ts";

export { encodeHeaderValue };
export type { HeaderParam };

/**
 * Reads a tool's `x-mcp-header` annotations, with the rules the server checks at definition time.
 *
 * @param inputSchema The tool's input schema.
 * @returns The mirrored parameters, or `undefined` when an annotation is invalid (the tool must then
 *   be dropped from the client's view).
 */
export function headerParamsOf(inputSchema: unknown): HeaderParam[] | undefined {
  const found = findHeaderParams(inputSchema);
  return found.ok ? [...found.params] : undefined;
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
    if (text !== undefined) headers.set(PARAM_HEADER_PREFIX + param.header, text);
  }
}
