/**
 * The namespace a tool-search tool is served under: `server.group("crm", child)` serves the child's `search_tools`
 * as `crm.search_tools`, so the names it answers and the names `call_tool` takes are the parent's (`crm.sendMail`),
 * callable as found, directly or through the call tool.
 *
 * @module
 */

/**
 * The prefix a tool is served under, read from the name it was called by.
 *
 * @param called The name the call named (`ctx.tool`).
 * @param own The tool's own name, as its server registered it.
 * @returns What precedes `own` in `called` (`"crm."`), or `""`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { servedPrefix } from "./served-namespace.ts";
 * assert.equal(servedPrefix("crm.search_tools", "search_tools"), "crm.");
 * assert.equal(servedPrefix("search_tools", "search_tools"), "");
 * ```
 */
export function servedPrefix(called: string, own: string): string {
  return called.length > own.length && called.endsWith(own) ? called.slice(0, called.length - own.length) : "";
}
