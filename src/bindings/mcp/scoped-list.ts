/**
 * The list methods of definitions a caller's scopes may hide (`prompts/list`, `resources/list`,
 * `resources/templates/list`): the capability check, the caller's view, one page of descriptors.
 *
 * @module
 */
import { type Registry, registryOf, scoping } from "../../core/mod.ts";
import { requireCapability } from "./lifecycle.ts";
import { listReply } from "./pagination.ts";
import type { McpMethod } from "./mcp-request.ts";

/** The definitions of a kind, as the registry holds them. */
type DefinitionOf<K extends "resources" | "prompts"> = Registry[K] extends Iterable<infer T> ? T : never;

/**
 * Builds a list method. When definitions of the kind require scopes, the list is cached per set of
 * scopes the caller holds, privately.
 *
 * @param kind The kind of definition, which is also the capability the method needs.
 * @param key Names the list in the registry's memo (`mcp:prompts`…).
 * @param field The result field (`prompts`, `resources`, `resourceTemplates`).
 * @param describe Turns the definitions the caller may see into the listed descriptors.
 * @returns The method.
 */
export function scopedList<K extends "resources" | "prompts">(
  kind: K,
  key: string,
  field: string,
  describe: (visible: DefinitionOf<K>[]) => unknown[],
): McpMethod {
  return (ctx, request) => {
    requireCapability(registryOf(ctx.core), request.envelope.era, kind, request.rpc.method);
    const visible = scoping.visibleTo(registryOf(ctx.core), kind, request.host.auth, key);
    return listReply(ctx, request, visible.key, field, () => describe(visible.items()), visible.private);
  };
}
