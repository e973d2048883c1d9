/**
 * The namespace transform `server.group()` mounts: a provider over the child's definitions that serves its tools and
 * prompts as `prefix.name`, its resources and skills under their own URIs, each carrying the child's runtime (its
 * middleware runs around them). Nothing is copied into the parent: the renamed views are derived from the child's
 * items once per change of the child, and every produced name is checked as it is derived.
 *
 * @module
 */
import { grouped, groupOf } from "../core/call/grouped-middleware.ts";
import type { Provider } from "../core/definitions/provider.ts";
import { type AnyPrompt, assertPromptName } from "../core/definitions/prompt.ts";
import { REDEEM_TOOL } from "../core/long-running/redeem-args.ts";
import type { Registry } from "../core/definitions/registry.ts";
import type { AnyResource } from "../core/definitions/resource.ts";
import { type AnyTool, assertToolName } from "../core/definitions/tool.ts";
import { prefixedResource } from "./prefixed-resource.ts";

/** How the parent serves the child. */
export interface Namespacing {
  /** The served name of a child's name (`git.clone` of `clone`). */
  readonly naming: (name: string) => string;
  /** How errors name the grouping (`server.group("git")`). */
  readonly where: string;
  /** The parent's bindings' checks of a tool (MCP's parameter headers, say). */
  readonly check: (tool: AnyTool) => void;
  /** A transform over each child tool before it is named: the tool to serve, or `undefined` to leave it out. */
  readonly transform?: (tool: AnyTool) => AnyTool | undefined;
  /** A transform over each child resource before it is prefixed: the resource to serve, or `undefined` to leave it out. */
  readonly transformResource?: (resource: AnyResource) => AnyResource | undefined;
  /** What the child's resource URIs and templates are served under (checked), if anything. */
  readonly resourcePrefix?: string;
}

/**
 * Serves a child's definitions renamed, under the child's runtime.
 *
 * @param child The child's definitions.
 * @param namespacing The naming, how errors name the grouping, the parent's checks, and a transform over tools.
 * @returns The view.
 * @throws {TypeError} When a produced name breaks the name rules, or a check refuses a tool.
 */
export function namespacedChild(child: Registry, namespacing: Namespacing): Provider {
  const { naming, where, check, transform = (tool: AnyTool) => tool, resourcePrefix } = namespacing;
  const transformResource = namespacing.transformResource ?? ((resource: AnyResource) => resource);
  // By the child's object, the view served of it: made once, so that what is derived from it (a list body, a
  // search index) stays while the child holds it.
  let tools = new Map<AnyTool, AnyTool | undefined>(), prompts = new Map<AnyPrompt, AnyPrompt>();
  let resources = new Map<AnyResource, AnyResource | undefined>();
  const byName = {
    tools: new Map<string, AnyTool>(),
    prompts: new Map<string, AnyPrompt>(),
    resources: [] as AnyResource[],
  };
  const runtimes = <T extends object>(definition: T): T =>
    grouped(definition, [child.runtime, ...(groupOf(definition) ?? [])]);
  /** A child's tool or prompt under its served name, that name checked against the rules. */
  const renamed = <T extends { readonly name: string }>(
    definition: T,
    kind: string,
    assertName: (n: string) => void,
  ) => {
    const name = naming(definition.name);
    try {
      assertName(name);
    } catch (error) {
      throw new TypeError(`${where}: ${kind} "${definition.name}" would be served as ${(error as Error).message}`);
    }
    return runtimes({ ...definition, name });
  };
  // Each list derived again only when the child changes it.
  const sync = {
    tools() {
      const served = [...child.tools].filter((t) => t.name !== REDEEM_TOOL);
      tools = derive(tools, served, (source) => {
        const shaped = transform(source);
        if (shaped === undefined) return undefined; // left out, until the child changes it
        const named = renamed(shaped, "tool", assertToolName);
        check(named);
        return named;
      });
      byName.tools = new Map([...tools.values()].filter((t) => t !== undefined).map((t) => [t.name, t]));
    },
    prompts() {
      prompts = derive(prompts, child.prompts, (source) => renamed(source, "prompt", assertPromptName));
      byName.prompts = new Map([...prompts.values()].map((p) => [p.name, p]));
    },
    resources() {
      resources = derive(resources, child.resources, (source) => {
        const shaped = transformResource(source);
        if (shaped === undefined) return undefined; // left out, until the child changes it
        // A read goes to the child's own URI: another is served under `resourcePrefix`, which maps it back.
        if (shaped.uri !== source.uri) {
          throw new TypeError(`${where}: a resource transform must keep ${source.uri}'s URI (use resourcePrefix)`);
        }
        return runtimes(resourcePrefix === undefined ? shaped : prefixedResource(shaped, resourcePrefix));
      });
      byName.resources = [...resources.values()].filter((r) => r !== undefined);
    },
  };
  sync.tools();
  sync.prompts();
  sync.resources();
  // Subscribed first, so the views are in step before any listener of the view hears the change.
  child.onChange((change) => {
    if (change.kind === "tools" || change.kind === "prompts" || change.kind === "resources") sync[change.kind]();
  });
  return {
    get: (name) => byName.tools.get(name),
    get tools() {
      return byName.tools.values();
    },
    prompt: (name) => byName.prompts.get(name),
    get prompts() {
      return byName.prompts.values();
    },
    get resources() {
      return byName.resources.values();
    },
    skill: (uri) => child.skill(uri),
    get skills() {
      return child.skills;
    },
    get features() {
      return child.features;
    },
    // An update of a child's resource is heard under the URI it is served as.
    onChange: (listener) =>
      child.onChange(
        resourcePrefix === undefined ? listener : (change) =>
          listener(
            change.kind === "resource-updated" ? { ...change, uri: `${resourcePrefix}${change.uri}` } : change,
          ),
      ),
  };
}

/** The views of the child's items: the one made before for an item it still holds, a new one for each new item. */
function derive<T, V extends T | undefined>(before: Map<T, V>, items: Iterable<T>, view: (item: T) => V): Map<T, V> {
  const after = new Map<T, V>();
  for (const item of items) after.set(item, before.has(item) ? before.get(item)! : view(item));
  return after;
}
