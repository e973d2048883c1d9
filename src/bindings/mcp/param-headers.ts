/**
 * `x-mcp-header` (MCP 2026-07-28, Streamable HTTP: custom headers, SEP-2243): a tool input property
 * may ask to be mirrored as an HTTP header `Mcp-Param-{Name}`, so that gateways can route on it without
 * reading the body. Declared with valibot metadata (`v.pipe(v.string(), v.metadata({ "x-mcp-header":
 * "Region" }))`), it flows into the tool's JSON Schema; the MCP binding reads it from there, checks it
 * when the tool is registered, with the same rules the client applies to the tools it lists
 * (`src/internal/mcp-wire.ts`), and keeps the result per tool.
 *
 * @module
 */
import { findHeaderParams, type HeaderParam } from "../../internal/mcp-wire.ts";
import type { AnyTool } from "../../core/mod.ts";

const DECLARED = new WeakMap<AnyTool, readonly HeaderParam[]>();

/**
 * Returns the `x-mcp-header` declarations of a tool's input schema, checked once per tool. A value
 * must be a non-empty RFC 9110 token, unique (case-insensitively) within the tool, on a `string`,
 * `integer` or `boolean` property reached from the root through `properties` only.
 *
 * @param tool The tool.
 * @returns The declarations, in schema order (empty when there are none).
 * @throws {TypeError} When a declaration breaks one of the rules; the message names the tool and property.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineTool } from "../../tool/define-tool.ts";
 * import { paramHeadersOf } from "./param-headers.ts";
 * const tool = defineTool("t").input({ type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } })
 *   .handle(() => "ok");
 * assert.deepEqual(paramHeadersOf(tool), [{ path: ["region"], header: "Region" }]);
 * ```
 */
export function paramHeadersOf(tool: AnyTool): readonly HeaderParam[] {
  let declared = DECLARED.get(tool);
  if (declared === undefined) {
    const found = findHeaderParams(tool.input.jsonSchema);
    if (!found.ok) {
      const at = found.path.length === 0 ? "the root" : `property "${found.path.join(".")}"`;
      throw new TypeError(`tool "${tool.name}" input: x-mcp-header on ${at} ${found.problem}`);
    }
    declared = Object.freeze(found.params);
    DECLARED.set(tool, declared);
  }
  return declared;
}
