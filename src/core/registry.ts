/**
 * The tool table every binding reads: one `Map` lookup per call, and list bodies that are built once
 * and rebuilt only when the table changes.
 *
 * @module
 */
import type { Feature, Featured } from "./feature.ts";
import type { Skill } from "./skill.ts";
import type { AnyPrompt } from "./prompt.ts";
import type { AnyResource } from "./resource.ts";
import type { AnyTool } from "./tool.ts";
import type { CompiledSchema } from "./schema.ts";
import { Continuations } from "./continuations.ts";
import type { Middleware, ToolCall, ToolMiddleware } from "./middleware.ts";

/** Receives errors that were masked or turned into failures, with the call that raised them, if any. */
export type ErrorReporter = (error: unknown, call?: ToolCall) => void;

/** What changed: one of the lists, the configuration, or the contents of one resource. */
export type RegistryChange =
  | { readonly kind: "tools" | "prompts" | "resources" | "config" }
  | { readonly kind: "resource-updated"; readonly uri: string };

const TOOLS: RegistryChange = Object.freeze({ kind: "tools" });
const PROMPTS: RegistryChange = Object.freeze({ kind: "prompts" });
const RESOURCES: RegistryChange = Object.freeze({ kind: "resources" });
const CONFIG: RegistryChange = Object.freeze({ kind: "config" });

/** The server-wide state every registry of one server shares. */
export interface RegistryOptions {
  /** Where masked errors go. */
  readonly onError?: ErrorReporter;
  /** The server's tokens, defaults and deferred work (default: a set from `MCPLITE_SECRET`). */
  readonly continuations?: Continuations;
  /** The server's own configuration values (`settings`). */
  readonly settings?: Readonly<Record<string, unknown>>;
}

/** What a registry shares with the registries forked from it. */
interface Shared {
  readonly middleware: Middleware[];
  readonly toolMiddleware: ToolMiddleware[];
  readonly onError: ErrorReporter | undefined;
  readonly continuations: Continuations;
  readonly settings: Readonly<Record<string, unknown>>;
  config: CompiledSchema | undefined;
  /** The features the registered definitions brought, here and in every fork. */
  readonly features: Set<Feature>;
  /** The registry and its forks, told when the shared configuration schema changes. */
  readonly members: Set<Registry>;
}

/** Set only while {@link Registry.fork} constructs a fork: the state it inherits. */
let inherited: Shared | undefined;

/**
 * The registry: tools, resources and prompts by name, the server-wide state (middleware, settings,
 * configuration schema, error reporter, continuations), and memoised list bodies.
 */
export class Registry {
  readonly #tools = new Map<string, AnyTool>();
  readonly #resources = new Map<string, AnyResource>();
  readonly #skills = new Map<string, Skill>();
  readonly #prompts = new Map<string, AnyPrompt>();
  readonly #memo = new Map<string, unknown>();
  readonly #listeners = new Set<(change: RegistryChange) => void>();
  readonly #state: Shared;

  /**
   * Creates an empty registry.
   *
   * @param options The server-wide state.
   */
  constructor(options: RegistryOptions = {}) {
    this.#state = inherited ?? {
      middleware: [],
      toolMiddleware: [],
      onError: options.onError,
      continuations: options.continuations ?? new Continuations(),
      settings: Object.freeze({ ...options.settings }),
      config: undefined,
      features: new Set(),
      members: new Set(),
    };
    this.#state.members.add(this);
  }

  /**
   * Creates a registry with a tool table of its own that shares this one's middleware, settings,
   * configuration schema, error reporter and continuations (Webtools serves older versions of a tool
   * set this way).
   *
   * @returns The new, empty registry.
   */
  fork(): Registry {
    inherited = this.#state;
    try {
      return new Registry();
    } finally {
      inherited = undefined;
    }
  }

  /** The request middleware chain (around every method), outermost first. */
  get middleware(): readonly Middleware[] {
    return this.#state.middleware;
  }

  /** The tool middleware chain (around tool handlers), outermost first. */
  get toolMiddleware(): readonly ToolMiddleware[] {
    return this.#state.toolMiddleware;
  }

  /**
   * Adds a request middleware at the end of its chain (innermost).
   *
   * @param middleware The middleware.
   */
  use(middleware: Middleware): void {
    this.#state.middleware.push(middleware);
  }

  /**
   * Adds a tool middleware at the end of its chain (innermost).
   *
   * @param middleware The middleware.
   */
  useTool(middleware: ToolMiddleware): void {
    this.#state.toolMiddleware.push(middleware);
  }

  /** Where masked errors go. */
  get onError(): ErrorReporter | undefined {
    return this.#state.onError;
  }

  /** The server's tokens, defaults and deferred work. */
  get continuations(): Continuations {
    return this.#state.continuations;
  }

  /** The server's own settings: the configuration values on MCP and MCP-lite, fixed on Webtools. */
  get settings(): Readonly<Record<string, unknown>> {
    return this.#state.settings;
  }

  /**
   * The features the registered resources, prompts and skills brought (e.g. the MCP methods
   * that serve resources), in the order they came; a binding reads its own part of each.
   */
  get features(): ReadonlySet<Feature> {
    return this.#state.features;
  }

  /** Keeps the features a definition brings. */
  #bring(definition: Featured): void {
    for (const feature of definition.features ?? []) this.#state.features.add(feature);
  }

  /** The server-level configuration schema (`server.config()`), merged into every tool's. */
  get config(): CompiledSchema | undefined {
    return this.#state.config;
  }

  /**
   * Sets the server-level configuration schema; memoised values are rebuilt, here and in every fork.
   *
   * @param schema The compiled schema.
   */
  setConfig(schema: CompiledSchema | undefined): void {
    this.#state.config = schema;
    for (const member of this.#state.members) member.#changed(CONFIG);
  }

  /**
   * Looks a tool up. This is the only registry work on the hot path.
   *
   * @param name The tool name.
   * @returns The tool, or `undefined`.
   */
  get(name: string): AnyTool | undefined {
    return this.#tools.get(name);
  }

  /** The registered tools, in registration order. */
  get tools(): IterableIterator<AnyTool> {
    return this.#tools.values();
  }

  /** The registered tool names, in registration order. */
  get names(): IterableIterator<string> {
    return this.#tools.keys();
  }

  /**
   * Registers a tool.
   *
   * @param tool The tool.
   * @throws {TypeError} When a tool of that name exists already.
   */
  add(tool: AnyTool): void {
    if (this.#tools.has(tool.name)) throw new TypeError(`a tool named "${tool.name}" is registered already`);
    this.#tools.set(tool.name, tool);
    this.#changed(TOOLS);
  }

  /**
   * Removes a tool.
   *
   * @param name The tool name.
   * @returns Whether a tool was removed.
   */
  remove(name: string): boolean {
    const removed = this.#tools.delete(name);
    if (removed) this.#changed(TOOLS);
    return removed;
  }

  /** The registered resources and templates, in registration order. */
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
    if (this.#resources.has(resource.uri)) throw new TypeError(`a resource ${resource.uri} is registered already`);
    this.#resources.set(resource.uri, resource);
    this.#bring(resource);
    this.#changed(RESOURCES);
  }

  /**
   * Removes a resource or a resource template.
   *
   * @param uri The URI (or the template) it was registered with.
   * @returns Whether one was removed.
   */
  removeResource(uri: string): boolean {
    const removed = this.#resources.delete(uri);
    if (removed) this.#changed(RESOURCES);
    return removed;
  }

  /** The registered skills (SEP-2640), in registration order. */
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
    if (this.#skills.has(skill.uri)) throw new TypeError(`a skill ${skill.uri} is registered already`);
    this.#skills.set(skill.uri, skill);
    this.#bring(skill);
    this.#changed(RESOURCES);
  }

  /**
   * Finds a skill by its URI (`skill://<name>/SKILL.md`).
   *
   * @param uri The URI.
   * @returns The skill, if one is registered.
   */
  skill(uri: string): Skill | undefined {
    return this.#skills.get(uri);
  }

  /**
   * Tells subscribers that a resource's contents changed (MCP `notifications/resources/updated`).
   *
   * @param uri The URI whose contents changed.
   */
  resourceUpdated(uri: string): void {
    const change: RegistryChange = { kind: "resource-updated", uri };
    for (const listener of this.#listeners) listener(change);
  }

  /**
   * Looks a prompt up.
   *
   * @param name The prompt name.
   * @returns The prompt, or `undefined`.
   */
  prompt(name: string): AnyPrompt | undefined {
    return this.#prompts.get(name);
  }

  /** The registered prompts, in registration order. */
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
    if (this.#prompts.has(prompt.name)) throw new TypeError(`a prompt named "${prompt.name}" is registered already`);
    this.#prompts.set(prompt.name, prompt);
    this.#bring(prompt);
    this.#changed(PROMPTS);
  }

  /**
   * Removes a prompt.
   *
   * @param name The prompt name.
   * @returns Whether a prompt was removed.
   */
  removePrompt(name: string): boolean {
    const removed = this.#prompts.delete(name);
    if (removed) this.#changed(PROMPTS);
    return removed;
  }

  /**
   * Returns a value computed from the table, computing it only after a change (list bodies, ETags).
   *
   * @param key What is memoised.
   * @param build Computes the value.
   * @returns The memoised value.
   */
  memo<T>(key: string, build: () => T): T {
    let value = this.#memo.get(key) as T | undefined;
    if (value === undefined) {
      value = build();
      this.#memo.set(key, value);
    }
    return value;
  }

  /**
   * Subscribes to changes of the table (for `list_changed` and `resources/updated` notifications).
   *
   * @param listener Called after each change, with what changed.
   * @returns A function that unsubscribes.
   */
  onChange(listener: (change: RegistryChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Tells this registry's listeners of a change raised elsewhere (another instance, through a
   * notifier), as if raised here.
   *
   * @param change What changed.
   */
  announce(change: RegistryChange): void {
    if (change.kind === "resource-updated") this.resourceUpdated(change.uri);
    else this.#changed(change);
  }

  #changed(change: RegistryChange): void {
    this.#memo.clear();
    for (const listener of this.#listeners) listener(change);
  }
}
