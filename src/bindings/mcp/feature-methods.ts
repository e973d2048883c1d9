/**
 * The MCP part of a feature: methods the binding serves only when a registered definition brings them
 * (`defineResource()` brings the `resources/*` methods, `definePrompt()` the `prompts/*` ones, a skill
 * the `skills/*` ones), so that a server without them does not carry their code. Without the feature a
 * method is unknown (-32601; 404 on 2026-07-28), as it is when its capability is not advertised.
 *
 * @module
 */
import type { Feature, Registry } from "../../core/mod.ts";
import type { McpMethod } from "./mcp-request.ts";
import type { ResolvedResource } from "../resolve-resource.ts";

/** Methods by name, for one era. */
export type McpMethods = Readonly<Record<string, McpMethod>>;

/** A feature's MCP part: its methods on the 2026-07-28 revision and on the 2025 revisions. */
export interface McpFeature extends Feature {
  /** The methods, by era, and the extensions it adds to the capabilities of both (by identifier). */
  readonly mcp: {
    readonly modern: McpMethods;
    readonly legacy: McpMethods;
    readonly extensions?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
    /** Finds the resource that answers a URI (the resources feature's), for `subscriptions/listen`. */
    readonly resolve?: (registry: Registry, uri: string) => ResolvedResource | undefined;
  };
}

/**
 * The extensions the registered definitions' features add to the capabilities, by identifier.
 *
 * @param registry The registry.
 * @returns The extensions (empty when none).
 */
export function featureExtensions(registry: Registry): Record<string, Readonly<Record<string, unknown>>> {
  const extensions: Record<string, Readonly<Record<string, unknown>>> = {};
  for (const feature of registry.features) Object.assign(extensions, (feature as Partial<McpFeature>).mcp?.extensions);
  return extensions;
}

/**
 * Finds a method among those the registered definitions brought.
 *
 * @param registry The registry.
 * @param name The method.
 * @param modern Whether the request is of the 2026-07-28 revision.
 * @returns The method, or `undefined` when no feature brings it.
 */
export function featureMethod(registry: Registry, name: string, modern: boolean): McpMethod | undefined {
  for (const feature of registry.features) {
    const methods = (feature as Partial<McpFeature>).mcp?.[modern ? "modern" : "legacy"];
    if (methods !== undefined && Object.hasOwn(methods, name)) return methods[name];
  }
  return undefined;
}

/**
 * Finds the resource that answers a URI through the feature that serves resources, so that a server
 * without resources does not carry the resolver: without the feature, no resource answers.
 *
 * @param registry The registry.
 * @param uri The URI.
 * @returns The resource and its template's variables, or `undefined`.
 */
export function featureResource(registry: Registry, uri: string): ResolvedResource | undefined {
  for (const feature of registry.features) {
    const resolve = (feature as Partial<McpFeature>).mcp?.resolve;
    if (resolve !== undefined) return resolve(registry, uri);
  }
  return undefined;
}
