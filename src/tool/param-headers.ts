/**
 * `x-mcp-header` (MCP SEP-2243): a tool input property may ask to be mirrored as an HTTP header
 * `Mcp-Param-{Name}`, so that gateways can route on it without reading the body. Declared with valibot
 * metadata (`v.pipe(v.string(), v.metadata({ "x-mcp-header": "Region" }))`), it flows into the JSON
 * Schema; this module checks the declarations once, when the tool is defined, with the same rules the
 * client applies to the tools it lists (`src/internal/mcp-wire.ts`).
 *
 * @module
 */
import { findHeaderParams, type HeaderParam } from "../internal/mcp-wire.ts";
import type { JsonSchema } from "./schema.ts";

/**
 * Collects and checks the `x-mcp-header` declarations of an input schema. A value must be a
 * non-empty RFC 9110 token, unique (case-insensitively) within the tool, on a `string`, `integer` or
 * `boolean` property reached from the root through `properties` only.
 *
 * @param schema The tool's input JSON Schema.
 * @param where Names the tool in errors.
 * @returns The declarations, in schema order (empty when there are none).
 * @throws {TypeError} When a declaration breaks one of the rules; the message names the property.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { paramHeadersOf } from "./param-headers.ts";
 * const schema = { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } };
 * assert.deepEqual(paramHeadersOf(schema, "tool"), [{ path: ["region"], header: "Region" }]);
 * ```
 */
export function paramHeadersOf(schema: JsonSchema, where: string): readonly HeaderParam[] {
  const found = findHeaderParams(schema);
  if (found.ok) return found.params;
  const at = found.path.length === 0 ? "the root" : `property "${found.path.join(".")}"`;
  throw new TypeError(`${where}: x-mcp-header on ${at} ${found.problem}`);
}
