/**
 * The MCP part of a feature: methods the binding serves only when a registered definition brings them
 * (`defineResource()` brings the `resources/*` methods, `definePrompt()` the `prompts/*` ones, an
 * extension its own), so that a server without them does not carry their code. Without the feature a
 * method is unknown (-32601; 404 on 2026-07-28), as it is when its capability is not advertised.
 *
 * @module
 */
import type { Extension, Feature, Registry } from "../../core/mod.ts";
import type { McpMethod } from "./mcp-request.ts";
import type { AddedSettings } from "./mcp-options.ts";
import type { ResolvedResource } from "../resolve-resource.ts";

/** Methods by name, for one era. */
export type McpMethods = Readonly<Record<string, McpMethod>>;

/** A feature's MCP part: its methods on the 2026-07-28 revision and on the 2025 revisions. */
export interface McpFeature extends Feature {
  /** The methods, by era, and the extension they serve, whose entry the capabilities of both carry. */
  readonly mcp: {
    readonly modern: McpMethods;
    readonly legacy: McpMethods;
    readonly extension?: Pick<Extension, "id" | "advertised">;
    /** Finds the resource that answers a URI (the resources feature's), for `subscriptions/listen`. */
    readonly resolve?: (registry: Registry, uri: string) => ResolvedResource | undefined;
    /** The method that passes on every message it `forwards` (a proxied remote's extension's): none named here. */
    readonly forward?: { readonly forwards: (name: string) => boolean; readonly method: McpMethod };
  };
}

/**
 * What the server advertises for an extension: its settings, with what the binding's options add to
 * them (`directoryRead` to the Skills extension's, SEP-2640).
 *
 * @param extension The extension.
 * @param added What the binding's options add, by identifier.
 * @returns The settings, a new object.
 */
export function advertisedSettings(
  extension: Pick<Extension, "id" | "advertised">,
  added: AddedSettings,
): Readonly<Record<string, unknown>> {
  return { ...extension.advertised, ...added[extension.id] };
}

/**
 * Adds the extensions the server serves (SEP-2133) to its capabilities: each one's settings by identifier.
 *
 * @param registry The registry.
 * @param added What the binding's options add to their settings.
 * @param capabilities The capabilities, whose `extensions` gets them (made when there is one).
 */
export function addServedExtensions(
  registry: Registry,
  added: AddedSettings,
  capabilities: { extensions?: Record<string, Readonly<Record<string, unknown>>> },
): void {
  for (const feature of registry.features) {
    const extension = (feature as Partial<McpFeature>).mcp?.extension;
    if (!extension) continue;
    (capabilities.extensions ??= {})[extension.id] = advertisedSettings(extension, added);
    // ChatGPT's profile of MCP Events reads `capabilities.events` (OpenAI's MCP Events guide); SEP-3415 the extension.
    if (extension.id === "io.modelcontextprotocol/events") (capabilities as Record<string, unknown>).events = {};
  }
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
  let forwarded: McpMethod | undefined;
  for (const feature of registry.features) {
    const mcp = (feature as Partial<McpFeature>).mcp;
    const methods = mcp?.[modern ? "modern" : "legacy"];
    if (methods !== undefined && Object.hasOwn(methods, name)) return methods[name];
    // A method a definition names wins over one a passed-on extension would take.
    if (forwarded === undefined && mcp?.forward?.forwards(name)) forwarded = mcp.forward.method;
  }
  return forwarded;
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
