/**
 * The definitions every binding reads: tools, resources, skills and prompts by name, the features they brought,
 * a change bus, typed caches of what is derived from them (list bodies, ETags) built once per change, and the
 * server's {@link Runtime}. One `Map` lookup per call is the only registry work on the hot path.
 *
 * Bindings read the {@link Registry} interface; the server holds {@link Definitions}, which also registers and
 * removes (`ComposedDefinitions`, when it can group, serves mounted providers after them).
 *
 * @module
 */
import type { CacheSlot } from "./cache-slot.ts";
import type { Extension } from "./extension.ts";
import type { Feature, Featured } from "./feature.ts";
import type { AnyPrompt } from "./prompt.ts";
import type { AnyResource } from "./resource.ts";
import type { Runtime } from "../instance/runtime.ts";
import type { Skill } from "./skill.ts";
import type { AnyTool } from "./tool.ts";
import type { LongRunning, Registry, RegistryChange, ToolListing } from "./registry-view.ts";

/** A feature that may refuse to join a registry, run as the extension that brings it is served (`src/core/definitions/feature.ts`). */
type Admitting = { readonly admit?: (registry: Registry) => void };

export type {
  CallTarget,
  ChangeFeed,
  LongRunning,
  RedeemToolFactory,
  Registry,
  RegistryChange,
  ToolListing,
} from "./registry-view.ts";
export { registryOf } from "./registry-view.ts";

const TOOLS: RegistryChange = Object.freeze({ kind: "tools" });
const PROMPTS: RegistryChange = Object.freeze({ kind: "prompts" });
const RESOURCES: RegistryChange = Object.freeze({ kind: "resources" });
const CONFIG: RegistryChange = Object.freeze({ kind: "config" });

/**
 * A server's definitions: the {@link Registry} a binding reads, plus registration.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { defineTool } from "../../tool/define-tool.ts";
 * import { Definitions } from "./registry.ts";
 * import { Runtime } from "../instance/runtime.ts";
 *
 * const registry = new Definitions(new Runtime());
 * const changes: string[] = [];
 * registry.onChange((change) => changes.push(change.kind));
 * registry.add(defineTool("echo").input(v.object({ text: v.string() })).handle(({ text }) => text));
 * assert.equal(registry.get("echo")?.name, "echo");
 * assert.deepEqual(changes, ["tools"]);
 * ```
 */
export class Definitions implements Registry {
  readonly #tools = new Map<string, AnyTool>();
  readonly #resources = new Map<string, AnyResource>();
  readonly #skills = new Map<string, Skill>();
  readonly #prompts = new Map<string, AnyPrompt>();
  /** The resource registered for each view tools brought (MCP Apps), by the view's own resource. */
  readonly #views = new Map<AnyResource, AnyResource>();
  readonly #caches = new Map<CacheSlot<unknown>, Map<string, unknown>>();
  readonly #listeners = new Set<(change: RegistryChange) => void>();
  readonly #features: Set<Feature>;
  /** The server's runtime. */
  readonly runtime: Runtime;
  /** The server's long-running support, if it has one. */
  readonly longRunning: LongRunning | undefined;
  /** The server's bindings' checks of a tool (MCP's parameter headers, say), run on each tool it serves. */
  readonly checks: ((tool: AnyTool) => void)[] = [];

  /**
   * Runs the bindings' checks of a tool, before it is served: a tool registered here, grouped or proxied.
   *
   * @param tool The tool.
   * @throws {TypeError} What a check refuses it with.
   */
  check(tool: AnyTool): void {
    for (const check of this.checks) check(tool);
  }
  /** Which tools the lists show; set before the first list (tool search sets it as the server is built). */
  listing: ToolListing | undefined;

  /**
   * Creates empty definitions.
   *
   * @param runtime The server's runtime.
   * @param longRunning The long-running support: its `redeem` system tool is added with the first
   *   long-running tool (MCP-lite spec v0.042 §3.6); without it, none is.
   * @param features The features set to share (a fork shares its parent's).
   */
  constructor(runtime: Runtime, longRunning?: LongRunning, features: Set<Feature> = new Set()) {
    this.runtime = runtime;
    this.longRunning = longRunning;
    this.#features = features;
    runtime.onConfigChange(() => this.#changed(CONFIG));
  }

  fork(tools: Iterable<AnyTool>): Registry {
    const fork = new Definitions(this.runtime, this.longRunning, this.#features);
    for (const tool of tools) fork.add(tool);
    return fork;
  }

  get features(): ReadonlySet<Feature> {
    return this.#features;
  }

  /** Keeps the features a definition brings, and serves the extensions it needs (each value once). */
  #bring(definition: Featured): void {
    for (const extension of definition.extensions ?? []) {
      // Served already when its features are (brought by another definition, or to a fork, which shares them).
      if (!this.#features.has(extension.features?.[0]!)) this.addExtension(extension);
    }
    for (const feature of definition.features ?? []) this.#features.add(feature);
  }

  get(name: string): AnyTool | undefined {
    return this.#tools.get(name);
  }

  get tools(): IterableIterator<AnyTool> {
    return this.#tools.values();
  }

  /**
   * Registers a tool, the resources it brings (its MCP App view, which requires the tool's scopes unless
   * it has its own), and with the first long-running one the `redeem` system tool.
   *
   * @param tool The tool.
   * @throws {TypeError} When a tool of that name exists already, or another resource holds its view's URI.
   */
  add(tool: AnyTool): void {
    if (this.get(tool.name)) throw new TypeError(`a tool named "${tool.name}" is registered already`);
    if (tool.longRunning !== undefined) this.longRunning?.admit(tool);
    this.#bring(tool);
    for (const view of tool.resources ?? []) this.#addView(view, tool.scopes);
    this.#tools.set(tool.name, tool);
    if (tool.longRunning !== undefined && this.longRunning !== undefined) {
      const redeem = this.longRunning.redeemTool(this);
      if (!this.#tools.has(redeem.name)) this.#tools.set(redeem.name, redeem);
    }
    this.#changed(TOOLS);
  }

  /**
   * Registers a resource a tool brings (its MCP App view) once, however many tools bring it; another
   * resource on its URI is refused. A view without scopes of its own (`defineApp().scopes()`) requires
   * the scopes of every tool registered with it, the union: it shows what those tools return, and the
   * server cannot tell which tool's result a host renders in it (MCP 2025-11-25, Authorization, Scope
   * Challenge Handling). It is listed and readable only with them.
   */
  #addView(view: AnyResource, scopes: readonly string[] | undefined): void {
    const held = this.#resources.get(view.uri);
    const ours = held !== undefined && (held === view || held === this.#views.get(view)) ? held : undefined;
    const inherited = view.scopes === undefined ? inheritedScopes(ours?.scopes, scopes) : undefined;
    const next = inherited === undefined ? view : Object.freeze({ ...view, scopes: inherited });
    if (ours === undefined) this.addResource(next);
    else if (next.scopes?.length === ours.scopes?.length) return;
    else {
      this.#resources.set(view.uri, next); // in its place: the list keeps its order
      this.#changed(RESOURCES);
    }
    this.#views.set(view, next);
  }

  /**
   * Removes a tool.
   *
   * @param name The tool name.
   * @returns Whether a tool was removed.
   */
  remove(name: string): boolean {
    return this.#take(this.#tools, name, TOOLS);
  }

  get resources(): IterableIterator<AnyResource> {
    return this.#resources.values();
  }

  /**
   * Registers a resource or a resource template.
   *
   * @param resource The resource.
   * @throws {TypeError} When one with that URI (or template) exists already.
   */
  addResource(resource: AnyResource): void {
    this.#register(this.#resources, resource.uri, resource, `a resource ${resource.uri}`, RESOURCES);
  }

  /**
   * Removes a resource or a resource template.
   *
   * @param uri The URI (or the template) it was registered with.
   * @returns Whether one was removed.
   */
  removeResource(uri: string): boolean {
    return this.#take(this.#resources, uri, RESOURCES);
  }

  get skills(): IterableIterator<Skill> {
    return this.#skills.values();
  }

  /**
   * Registers a skill; its files are registered as resources by the caller.
   *
   * @param skill The skill.
   * @throws {TypeError} When a skill of that URI is registered already.
   */
  addSkill(skill: Skill): void {
    this.#register(this.#skills, skill.uri, skill, `a skill ${skill.uri}`, RESOURCES);
  }

  /**
   * Serves an extension: its features join the others (its methods, its entry in the capabilities, its message
   * middleware). Each feature may refuse first (`Feature`'s `admit`): as an SDK must (SEP-2133), an extension whose
   * identifier, or one of whose methods, is served already.
   *
   * @param extension The extension.
   * @throws {TypeError} What a feature refuses it with.
   */
  addExtension(extension: Extension): void {
    for (const feature of extension.features ?? []) (feature as Admitting).admit?.(this);
    this.#bring(extension);
    this.#caches.clear(); // server/discover, serialised once, now advertises it
  }

  skill(uri: string): Skill | undefined {
    return this.#skills.get(uri);
  }

  /**
   * Tells subscribers that a resource's contents changed (MCP `notifications/resources/updated`).
   *
   * @param uri The URI whose contents changed.
   */
  resourceUpdated(uri: string): void {
    this.announce({ kind: "resource-updated", uri });
  }

  prompt(name: string): AnyPrompt | undefined {
    return this.#prompts.get(name);
  }

  get prompts(): IterableIterator<AnyPrompt> {
    return this.#prompts.values();
  }

  /**
   * Registers a prompt.
   *
   * @param prompt The prompt.
   * @throws {TypeError} When a prompt of that name exists already.
   */
  addPrompt(prompt: AnyPrompt): void {
    this.#register(this.#prompts, prompt.name, prompt, `a prompt named "${prompt.name}"`, PROMPTS);
  }

  /**
   * Removes a prompt.
   *
   * @param name The prompt name.
   * @returns Whether a prompt was removed.
   */
  removePrompt(name: string): boolean {
    return this.#take(this.#prompts, name, PROMPTS);
  }

  cached<V>(slot: CacheSlot<V>, key: string, build: () => V): V {
    let values = this.#caches.get(slot);
    if (values === undefined) this.#caches.set(slot, values = new Map());
    let value = values.get(key) as V | undefined;
    if (value === undefined) {
      value = build();
      values.set(key, value);
    }
    return value;
  }

  onChange(listener: (change: RegistryChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Where streams hear changes from; a relay may set another feed as the server is built. */
  listen(listener: (change: RegistryChange) => void, ready?: () => void): () => void {
    ready?.();
    return this.onChange(listener);
  }

  /**
   * Tells this registry's listeners of a change raised elsewhere (another instance, through a notifier; a
   * remote, through a proxy), as if raised here. A resource's update and a log sent outside any request (which
   * an MCP 2025 session after `logging/setLevel` hears, MCP 2025-11-25 Logging; MCP 2026-07-28 has no place for
   * one) change no definition: they leave the caches as they are.
   *
   * @param change What changed.
   */
  announce(change: RegistryChange): void {
    if (change.kind !== "resource-updated" && change.kind !== "log") return this.#changed(change);
    for (const listener of this.#listeners) listener(change);
  }

  /**
   * Registers a definition that may bring features and extensions (a resource, skill or prompt), and tells
   * the listeners; a second one under the same key is refused, naming the first (`what`).
   */
  #register<T extends Featured>(
    table: Map<string, T>,
    key: string,
    definition: T,
    what: string,
    change: RegistryChange,
  ) {
    if (table.has(key)) throw new TypeError(`${what} is registered already`);
    this.#bring(definition);
    table.set(key, definition);
    this.#changed(change);
  }

  /** Takes a definition out of its table, telling the listeners when there was one. */
  #take(table: Map<string, unknown>, key: string, change: RegistryChange): boolean {
    const removed = table.delete(key);
    if (removed) this.#changed(change);
    return removed;
  }

  #changed(change: RegistryChange): void {
    this.#caches.clear();
    for (const listener of this.#listeners) listener(change);
  }
}

/** The scopes a view requires with one more tool's: the union, or `undefined` while there are none. */
function inheritedScopes(
  held: readonly string[] | undefined,
  added: readonly string[] | undefined,
): readonly string[] | undefined {
  if (added === undefined || added.length === 0) return held;
  return Object.freeze([...new Set([...(held ?? []), ...added])]);
}
