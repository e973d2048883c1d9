/**
 * Finds the resource that answers a URI: an exact static URI first, then the templates in
 * registration order. The index is built once per change of the registry. Shared by the wires that read
 * resources: MCP's `resources/read` and MCP-lite's (this SDK's MCP-lite extension E4).
 *
 * @module
 */
import { type AnyResource, CacheSlot, type Registry } from "../core/mod.ts";

/** The static resources by URI, and the templates. */
const INDEX = /* @__PURE__ */ new CacheSlot<ResourceIndex>("resource-index");

/** A resource matched to a URI, with the template's variables. */
export interface ResolvedResource {
  /** The resource. */
  readonly resource: AnyResource;
  /** The decoded template variables (empty for a static resource). */
  readonly variables: Record<string, string>;
}

interface ResourceIndex {
  readonly statics: ReadonlyMap<string, AnyResource>;
  readonly templates: readonly AnyResource[];
}

const NO_VARIABLES: Record<string, string> = /* @__PURE__ */ Object.freeze({}) as Record<string, string>;

/**
 * Resolves a URI to the resource that answers it.
 *
 * @param registry The registry.
 * @param uri The URI.
 * @returns The resource and its variables, or `undefined`.
 */
export function resolveResource(registry: Registry, uri: string): ResolvedResource | undefined {
  const index = resourceIndex(registry);
  const resource = index.statics.get(uri);
  if (resource !== undefined) return { resource, variables: NO_VARIABLES };
  for (const template of index.templates) {
    const variables = template.template!.match(uri);
    if (variables !== undefined) return { resource: template, variables };
  }
  return undefined;
}

/**
 * Finds a template by its template string (for `completion/complete` with `ref/resource`).
 *
 * @param registry The registry.
 * @param template The template string.
 * @returns The template resource, or `undefined`.
 */
export function findTemplate(registry: Registry, template: string): AnyResource | undefined {
  return resourceIndex(registry).templates.find((r) => r.uri === template);
}

function resourceIndex(registry: Registry): ResourceIndex {
  return registry.cached(INDEX, "", () => {
    const statics = new Map<string, AnyResource>();
    const templates: AnyResource[] = [];
    for (const resource of registry.resources) {
      if (resource.template === undefined) statics.set(resource.uri, resource);
      else templates.push(resource);
    }
    return { statics, templates };
  });
}
