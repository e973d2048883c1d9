/**
 * The MCP-lite part of the resources feature (this SDK's MCP-lite extension E4, after §8.1's prompts):
 * the MCP-lite HTTP, socket and gRPC bindings find it among the registry's features, so that a server
 * without resources does not load the code that serves them (`src/core/definitions/feature.ts`).
 *
 * @module
 */
import type { AuthInfo, describeResource, Feature, HandlerOutcome, Registry } from "../core/mod.ts";
import type { PromptCaller } from "./render-prompt.ts";
import { litePart } from "./lite-part.ts";

type ResourceDescriptor = ReturnType<typeof describeResource>;

/** Who asks for a read, as the wire decoded it (what a prompt's rendering is given). */
export type ResourceCaller = PromptCaller;

/** What serves resources on MCP-lite's wires. */
export interface LiteResources {
  /**
   * Lists the static resources, or the templates, a caller may read (MCP's `Resource`, `ResourceTemplate`).
   *
   * @param registry The registry.
   * @param auth The caller.
   * @param templates The templates rather than the static resources.
   * @returns The descriptors, in registration order.
   */
  list(registry: Registry, auth: AuthInfo | undefined, templates: boolean): ResourceDescriptor[];
  /**
   * Returns the `/resources` body, `{"resources":[…]}`, or the `/resources/templates` body,
   * `{"resourceTemplates":[…]}`, encoded once per change of the resources (and set of scopes).
   *
   * @param registry The registry.
   * @param auth The caller.
   * @param templates The templates' body.
   * @returns The bytes.
   */
  listBytes(registry: Registry, auth: AuthInfo | undefined, templates: boolean): Uint8Array<ArrayBuffer>;
  /**
   * Reads a resource: MCP's `ReadResourceResult`, `{contents}`.
   *
   * @param registry The registry.
   * @param uri The URI, as sent.
   * @param caller The request's params, caller, signal and input round.
   * @returns The result, or the input the request still needs.
   */
  read(registry: Registry, uri: unknown, caller: ResourceCaller): Promise<HandlerOutcome<Record<string, unknown>>>;
}

/** A feature's MCP-lite resources part. */
export interface LiteResourceFeature extends Feature {
  /** The resources part. */
  readonly mcplite: { readonly resources: LiteResources };
}

/**
 * Finds what serves resources on MCP-lite, if a registered resource brought it.
 *
 * @param registry The registry.
 * @returns The resources part, or `undefined` when the server defines no resource.
 */
export function liteResources(registry: Registry): LiteResources | undefined {
  return litePart<LiteResources>(registry, "resources");
}
