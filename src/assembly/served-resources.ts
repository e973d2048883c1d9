/**
 * `defineResource()`, served: the wire-free resource builder (`src/resource/`) given the features of
 * the bindings that serve resources (MCP's `resources/*` methods, MCP-lite's `/resources` endpoints). The definition declares what it is;
 * this file, as `createServer()` does for bindings, wires it to what serves it, so a server that defines
 * no resource does not load or bundle that code (`src/core/definitions/feature.ts`).
 *
 * @module
 */
import { RESOURCES_ON_MCP } from "../bindings/mcp/resources.ts";
import { RESOURCES_ON_LITE } from "../bindings/mcplite/resources.ts";
import { type ResourceBuilder, resourceBuilder } from "../resource/define-resource.ts";

/** What serves a resource: the MCP methods and the MCP-lite endpoints for resources. */
export const RESOURCES_SERVED_BY = [RESOURCES_ON_MCP, RESOURCES_ON_LITE];

/**
 * Starts the definition of a resource: a static URI (`test://static-text`) or an RFC 6570 level-1
 * template (`test://template/{id}/data`), whose variables the read handler receives typed.
 *
 * @param uri The absolute URI or template.
 * @returns A fluent builder.
 * @throws {TypeError} When the URI is not absolute or the template is not level 1.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineResource } from "./served-resources.ts";
 *
 * const readme = defineResource("docs://readme").mimeType("text/markdown").read(() => "# Hello");
 * const user = defineResource("users://{id}/profile")
 *   .mimeType("application/json")
 *   .complete("id", (typed) => ["alice", "bob"].filter((id) => id.startsWith(typed)))
 *   .read(({ id }) => JSON.stringify({ id }));
 * assert.equal(user.template?.match("users://alice/profile")?.id, "alice");
 * assert.equal(readme.template, undefined);
 * ```
 */
export function defineResource<TUri extends string>(uri: TUri): ResourceBuilder<TUri> {
  return resourceBuilder(uri, RESOURCES_SERVED_BY);
}
