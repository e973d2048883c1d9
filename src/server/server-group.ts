/**
 * `server.group()`: another server's tools, prompts, resources and skills served by this one, tools and
 * prompts under a namespace (`git.clone`), kept in step with the child as it changes (mcp-lite's
 * `.group()`). Every produced name is checked against the name rules, and against what the parent
 * holds, before anything is registered: a grouping either happens whole or fails naming the clash.
 *
 * @module
 */
import { grouped, groupOf } from "../core/grouped-middleware.ts";
import type { Definitions, Registry } from "../core/registry.ts";
import { type AnyPrompt, assertPromptName } from "../core/prompt.ts";
import type { AnyResource } from "../core/resource.ts";
import { type AnyTool, assertToolName } from "../core/tool.ts";
import { REDEEM_TOOL } from "../core/redeem.ts";

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
}

/** The parent's side of a grouping. */
export interface GroupParent {
  /** The parent's definitions (the server's own, which take registrations too). */
  readonly definitions: Registry;
  /** The parent's bindings' checks of a tool (e.g. MCP's parameter headers). */
  readonly check: (tool: AnyTool) => void;
}

/** One definition mounted from the child: its name in the parent, and the child's object it came from. */
interface Mounted<T> {
  readonly name: string;
  readonly source: T;
}

/** What one sync changes: removals first, then additions (all checked before any is made). */
interface Plan {
  readonly removed: { tools: string[]; prompts: string[]; resources: string[] };
  readonly tools: [AnyTool, string][];
  readonly prompts: [AnyPrompt, string][];
  readonly resources: AnyResource[];
}

/**
 * Group support: what `server.group()` runs. `createServer` of `@mcplite/sdk` has it; that of
 * `@mcplite/sdk/lite` only when given `group`, so that a server that groups none bundles none of it.
 */
export type GroupSupport = (
  parent: GroupParent,
  child: Registry,
  prefix: string | undefined,
  options: GroupOptions<string>,
) => void;

/**
 * Mounts a child's definitions on a parent and keeps them in step with the child.
 *
 * @param parent The parent's definitions and checks.
 * @param child The child's definitions.
 * @param prefix The namespace, or `undefined` to keep the child's names.
 * @param options What joins the prefix and a name (default `.`), and what a resource on a URI served already does.
 * @throws {TypeError} When a produced name breaks the name rules, or the parent holds it already.
 */
export function mountGroup(
  parent: GroupParent,
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
  const tools = new Map<string, Mounted<AnyTool>>();
  const prompts = new Map<string, Mounted<AnyPrompt>>();
  const resources = new Map<string, Mounted<AnyResource>>();
  const skills = new Set<string>();
  const group = <T extends object>(definition: T): T =>
    grouped(definition, [child.runtime, ...(groupOf(definition) ?? [])]);
  const into = parent.definitions as Definitions; // the server passes its own, which register

  /** Plans one kind of named definition: which mounted ones the child dropped, which to mount (checked). */
  const planNamed = <T extends { readonly name: string }>(
    kind: "tool" | "prompt",
    own: Map<string, T>,
    mounted: Map<string, Mounted<T>>,
    assertName: (name: string) => void,
    held: (name: string) => boolean,
    removed: string[],
    added: [T, string][],
  ): void => {
    for (const [name, m] of mounted) if (own.get(name) !== m.source) removed.push(name);
    for (const definition of own.values()) {
      if (mounted.get(definition.name)?.source === definition) continue;
      const name = naming(definition.name);
      const said = `${where}: ${kind} "${definition.name}" would be served as`;
      try {
        assertName(name);
      } catch (error) {
        throw new TypeError(`${said} ${(error as Error).message}`);
      }
      if (held(name) && mounted.get(definition.name)?.name !== name) {
        throw new TypeError(`${said} "${name}", which this server has already`);
      }
      added.push([definition, name]);
    }
  };

  const plan = (): Plan => {
    const next: Plan = { removed: { tools: [], prompts: [], resources: [] }, tools: [], prompts: [], resources: [] };
    const own = new Map([...child.tools].filter((t) => t.name !== REDEEM_TOOL).map((t) => [t.name, t]));
    planNamed("tool", own, tools, assertToolName, (n) => into.get(n) !== undefined, next.removed.tools, next.tools);
    const ownPrompts = new Map([...child.prompts].map((p) => [p.name, p]));
    const heldPrompt = (n: string) => into.prompt(n) !== undefined;
    planNamed("prompt", ownPrompts, prompts, assertPromptName, heldPrompt, next.removed.prompts, next.prompts);
    const ownResources = new Map([...child.resources].map((r) => [r.uri, r]));
    for (const [uri, m] of resources) if (ownResources.get(uri) !== m.source) next.removed.resources.push(uri);
    const held = new Set([...into.resources].map((r) => r.uri));
    for (const resource of ownResources.values()) {
      if (resources.get(resource.uri)?.source === resource) continue;
      // URIs name resources already: they are served as they are, so two servers cannot share one.
      if (held.has(resource.uri) && !resources.has(resource.uri)) {
        if (options.onResourceClash === "skip") continue; // the one served stays
        throw new TypeError(`${where}: resource ${resource.uri} is served by this server already`);
      }
      next.resources.push(resource);
    }
    return next;
  };

  const apply = (next: Plan): void => {
    for (const name of next.removed.tools) {
      into.remove(tools.get(name)!.name);
      tools.delete(name);
    }
    for (const name of next.removed.prompts) {
      into.removePrompt(prompts.get(name)!.name);
      prompts.delete(name);
    }
    for (const uri of next.removed.resources) {
      into.removeResource(uri);
      resources.delete(uri);
    }
    for (const [tool, name] of next.tools) {
      const mounted = group({ ...tool, name });
      parent.check(mounted);
      into.remove(name); // a definition the child replaced
      into.add(mounted);
      tools.set(tool.name, { name, source: tool });
    }
    for (const [prompt, name] of next.prompts) {
      into.removePrompt(name);
      into.addPrompt(group({ ...prompt, name }));
      prompts.set(prompt.name, { name, source: prompt });
    }
    for (const resource of next.resources) {
      into.removeResource(resource.uri);
      into.addResource(group(resource));
      resources.set(resource.uri, { name: resource.uri, source: resource });
    }
    for (const skill of child.skills) {
      if (skills.has(skill.uri)) continue;
      if (into.skill(skill.uri) === undefined) into.addSkill(skill);
      skills.add(skill.uri);
    }
  };

  apply(plan());
  // What the child lists, the parent lists, under what it lists of its own (tool search's listing stacks).
  into.listing = child.listing?.under?.(naming(""), child, into.listing) ?? into.listing;
  // Later registrations on the child reach the parent (and its list_changed listeners).
  child.onChange((change) => {
    if (change.kind === "config") return;
    // A resource's update (a static one's, or a URI a template answers) and a log outside requests: the parent's
    // listeners hear them as the child's would (each stream keeps only the URIs its caller subscribed to).
    if (change.kind === "resource-updated" || change.kind === "log") return into.announce(change);
    apply(plan());
  });
}
