/**
 * `server.group()`: another server's tools, prompts, resources and skills served by this one, tools and
 * prompts under a namespace (`git.clone`), read through the child as it changes (mcp-lite's `.group()`):
 * the child is mounted as a provider under a namespace transform. Every produced name is checked against the
 * name rules, and against what the parent serves, before it is mounted: a grouping happens whole or fails.
 *
 * @module
 */
import type { ComposedDefinitions } from "../core/definitions/composed-definitions.ts";
import type { Definitions, LongRunning, Registry } from "../core/definitions/registry.ts";
import type { Runtime } from "../core/instance/runtime.ts";
import type { AnyTool } from "../core/definitions/tool.ts";
import type { AnyResource } from "../core/definitions/resource.ts";
import { namespacedChild } from "./namespaced-child.ts";
import { assertResourcePrefix } from "./prefixed-resource.ts";

/** Definitions that something follows into a group: the hook it left runs before they are mounted there. */
type Followed = Registry & { readonly "~grouped"?: (parent: Definitions, naming: (name: string) => string) => void };

/** Options of `server.group(prefix, child, options)`. */
export interface GroupOptions<S extends string = "."> {
  /**
   * What joins the prefix and a name (default `.`: `git.clone`). It must keep names valid: tool names
   * are 1–64 characters of `A-Z a-z 0-9 _ . -` (so not `/`, which mcp-lite uses).
   */
  readonly separator?: S;
  /**
   * A child's resource on a URI this server serves already (URIs name resources, so they are served as they are):
   * `"fail"` (default) refuses the grouping, naming it; `"skip"` keeps the one served, as when two proxies of one
   * server are grouped side by side and each brings the same resources.
   */
  readonly onResourceClash?: "fail" | "skip";
  /**
   * A transform over the child's tools, as this server serves them: each tool the child serves (before the prefix),
   * the tool to serve in its place (`transformTool(tool, { … })`, the tool itself to keep it as it is) or `undefined`
   * to leave it out. It runs again for each tool the child changes (a proxied remote's new schema), so what it makes
   * follows the child. The typed client sees the child's own tools: a transform that renames or hides one needs
   * `createClient<…>()` typed by hand.
   */
  readonly transform?: (tool: AnyTool) => AnyTool | undefined;
  /**
   * What the child's resource URIs and templates are served under: `"a+"` serves `notes://{id}` as
   * `a+notes://{id}`, so one server (two proxies of one remote) can be grouped twice without their URIs clashing.
   * A read, a completion and a subscription reach the child with its own URI, and its updates reach subscribers
   * of the prefixed one. A literal that keeps every URI absolute: the start of the child's scheme (`a+`) or a
   * scheme of its own (`gw://a/`), without `{`, `}` or spaces; another is refused. Skills keep their URIs. A URI the child writes in its contents (a
   * `resource_link` a tool returns) is its own, unprefixed.
   */
  readonly resourcePrefix?: string;
  /**
   * A transform over the child's resources and templates, as `transform` is over its tools: the resource to serve
   * in its place (with its own URI: `resourcePrefix` serves it under another), the resource itself to keep it, or
   * `undefined` to leave it out. It runs again for each resource the child changes.
   */
  readonly transformResource?: (resource: AnyResource) => AnyResource | undefined;
}

/**
 * Group support: what `server.group()` runs. `createServer` of `@mcplite/sdk` has it; that of
 * `@mcplite/sdk/lite` only when given `group`, so that a server that groups none bundles none of it.
 */
export interface GroupSupport {
  (parent: Definitions, child: Registry, prefix: string | undefined, options: GroupOptions<string>): void;
  /** The definitions a server that can group holds: its own, then the providers mounted after them. */
  readonly registry?: new (runtime: Runtime, longRunning?: LongRunning) => Definitions;
}

/**
 * Mounts a child's definitions on a parent and keeps them in step with the child.
 *
 * @param parent The parent's definitions (a server that can group holds `ComposedDefinitions`), with its checks.
 * @param child The child's definitions.
 * @param prefix The namespace, or `undefined` to keep the child's names.
 * @param options What joins the prefix and a name (default `.`), what a resource on a URI served already does, a
 *   transform over the child's tools, and over its resources, and their URIs' prefix.
 * @throws {TypeError} When a produced name breaks the name rules, or the parent holds it already.
 */
export function mountGroup(
  parent: Definitions,
  child: Registry,
  prefix: string | undefined,
  options: GroupOptions<string>,
): void {
  const separator = options.separator ?? ".";
  const where = prefix === undefined ? "server.group()" : `server.group(${JSON.stringify(prefix)})`;
  if (prefix !== undefined && (typeof prefix !== "string" || prefix === "")) {
    throw new TypeError(`${where}: the prefix must be a non-empty string`);
  }
  const naming = (name: string) => prefix === undefined ? name : `${prefix}${separator}${name}`;
  const into = parent as ComposedDefinitions; // a server that can group holds one
  const check = (tool: AnyTool) => into.check(tool);
  const { transform, transformResource, resourcePrefix } = options;
  if (resourcePrefix !== undefined) assertResourcePrefix(resourcePrefix, where);
  const view = namespacedChild(child, { naming, where, check, transform, transformResource, resourcePrefix });
  // A grouping happens whole or fails naming the clash; later, the first provider to serve a name serves it.
  const taken = (kind: string, name: string) =>
    new TypeError(`${where}: ${kind} "${name}" would be served as "${naming(name)}", which this server has already`);
  const own = (name: string) => name.slice(naming("").length);
  for (const { name } of view.tools) if (into.get(name)) throw taken("tool", own(name));
  for (const { name } of view.prompts) if (into.prompt(name)) throw taken("prompt", own(name));
  if (options.onResourceClash !== "skip") { // URIs name resources already: they are served as they are
    const held = new Set([...into.resources].map((resource) => resource.uri));
    for (const { uri } of view.resources) {
      if (held.has(uri)) throw new TypeError(`${where}: resource ${uri} is served by this server already`);
    }
  }
  // What else follows the child: its events (MCP Events' router, src/events/, leaves this hook on its definitions).
  (child as Followed)["~grouped"]?.(into, naming);
  into.mount(view);
  // What the child lists, the parent lists, under what it lists of its own (tool search's listing stacks).
  into.listing = child.listing?.under?.(naming(""), child, into.listing) ?? into.listing;
}
