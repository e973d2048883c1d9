/**
 * The remote as a provider: each tool, prompt, resource and template the remote lists becomes a definition that
 * forwards to it, kept as the provider's cache; a later sync keeps what is unchanged (the same object), makes anew
 * what the remote changed or added, drops what it dropped, and raises the change, so the proxy's server (and a
 * server grouping it, and their `list_changed` listeners) follows. Nothing is registered on a server.
 *
 * @module
 */
import type { ToolInfo } from "../client/transport.ts";
import type { Feature } from "../core/definitions/feature.ts";
import type { AnyPrompt } from "../core/definitions/prompt.ts";
import type { Provider } from "../core/definitions/provider.ts";
import type { RegistryChange } from "../core/definitions/registry.ts";
import type { AnyResource } from "../core/definitions/resource.ts";
import type { Skill } from "../core/definitions/skill.ts";
import type { AnyTool } from "../core/definitions/tool.ts";
import { REDEEM_TOOL } from "../core/long-running/redeem-args.ts";
import { isObject } from "../internal/is-object.ts";
import { TASKS_EXTENSION } from "../internal/mcp-wire.ts";
import type { HopOptions } from "./hop-options.ts";
import { proxiedPrompt } from "./proxied-prompt.ts";
import { proxiedResource } from "./proxied-resource.ts";
import { proxiedTool } from "./proxied-tool.ts";
import type { Remote } from "./remote.ts";

/** What the remote said it serves (`capabilities`), when it said (MCP); `undefined`: ask for everything. */
export type RemoteCapabilities = Record<string, unknown> | undefined;

/** One kind of definition mirrored: by key (a name, a URI or template), the listing it was made from (as JSON) and the definition. */
type Held<T> = Map<string, { readonly json: string; readonly definition: T }>;

/** A remote's lists, served as a {@link Provider}. */
export class Mirror implements Provider {
  readonly #remote: Remote;
  readonly #hop: HopOptions;
  readonly #capabilities: RemoteCapabilities;
  readonly #warn: (message: string) => void;
  readonly #check: (tool: AnyTool) => void;
  #tools: Held<AnyTool> = new Map();
  #prompts: Held<AnyPrompt> = new Map();
  #resources: Held<AnyResource> = new Map();
  readonly #listeners = new Set<(change: RegistryChange) => void>();
  readonly features: Set<Feature> = new Set();

  /**
   * Creates the mirror of a remote.
   *
   * @param remote The remote.
   * @param hop How the second hop goes.
   * @param capabilities What the remote serves.
   * @param warn Hears of a remote definition that cannot be served here.
   * @param check The serving server's checks of a tool (its bindings'): a tool they refuse is not served.
   */
  constructor(
    remote: Remote,
    hop: HopOptions,
    capabilities: RemoteCapabilities,
    warn: (message: string) => void,
    check: (tool: AnyTool) => void,
  ) {
    this.#remote = remote;
    this.#hop = hop;
    this.#capabilities = capabilities;
    this.#warn = warn;
    this.#check = check;
  }

  get(name: string): AnyTool | undefined {
    return this.#tools.get(name)?.definition;
  }

  get tools(): IterableIterator<AnyTool> {
    return definitions(this.#tools);
  }

  prompt(name: string): AnyPrompt | undefined {
    return this.#prompts.get(name)?.definition;
  }

  get prompts(): IterableIterator<AnyPrompt> {
    return definitions(this.#prompts);
  }

  get resources(): IterableIterator<AnyResource> {
    return definitions(this.#resources);
  }

  /** A remote serves no skills through a proxy (their files are its resources). */
  skill(): Skill | undefined {
    return undefined;
  }

  get skills(): IterableIterator<Skill> {
    return [].values();
  }

  onChange(listener: (change: RegistryChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Reads the remote's tools again, and follows them.
   *
   * @param fresh Past the client's cache; else as the remote's `ttlMs` and `ETag` allow (a 304 costs no list).
   */
  async syncTools(fresh = true): Promise<void> {
    const tools: ToolInfo[] = await this.#remote.client.listTools({ fresh });
    // The remote's `redeem` is its own machinery (MCP-lite spec v0.042 §3.6): its promises become ours.
    const served = tools.filter((t) => t.name !== REDEEM_TOOL);
    const next = this.#follow(this.#tools, served.map((t) => [t.name, t]), (info) => {
      const tool = proxiedTool(info, this.#remote, this.#hop, this.#longRunning(info));
      this.#check(tool);
      return tool;
    });
    if (next === undefined) return;
    this.#tools = next;
    this.#raise("tools");
  }

  /** Reads the remote's prompts again, and follows them (none asked of a remote that declared none). */
  async syncPrompts(): Promise<void> {
    if (!this.#serves("prompts")) return;
    const prompts = await this.#optional(() => this.#remote.client.listPrompts());
    if (prompts === undefined) return;
    const completes = this.#serves("completions");
    const next = this.#follow(this.#prompts, prompts.map((p) => [String(p.name), p]), (listed) => {
      return proxiedPrompt(listed, this.#remote, this.#hop, completes);
    });
    if (next === undefined) return;
    this.#prompts = next;
    this.#raise("prompts");
  }

  /** Reads the remote's resources and templates again, and follows them. */
  async syncResources(): Promise<void> {
    if (!this.#serves("resources")) return;
    const client = this.#remote.client;
    const resources = await this.#optional(() => client.listResources());
    const templates = await this.#optional(() => client.listResourceTemplates());
    if (resources === undefined && templates === undefined) return;
    const listed = [...resources ?? [], ...templates ?? []];
    const completes = this.#serves("completions");
    const keyed = listed.map((r): [string, typeof r] => [String(r.uriTemplate ?? r.uri), r]);
    const next = this.#follow(this.#resources, keyed, (r) => proxiedResource(r, this.#remote, this.#hop, completes));
    if (next === undefined) return;
    this.#resources = next;
    this.#raise("resources");
  }

  /**
   * Reads every list.
   *
   * @param fresh Reads the tools past the client's cache.
   */
  async syncAll(fresh = true): Promise<void> {
    await this.syncTools(fresh);
    await this.syncPrompts();
    await this.syncResources();
  }

  /**
   * Whether the remote may answer a tool with a promise or a task: any tool of an MCP-lite remote (MCP-lite
   * spec v0.042 §3.6) or of one declaring the tasks extension (MCP 2026-07-28), or one listed with
   * `execution.taskSupport` (MCP 2025-11-25, Tasks).
   */
  #longRunning(info: ToolInfo): boolean {
    const support = info.execution?.taskSupport;
    if (support === "optional" || support === "required") return true;
    if (this.#remote.client.wire === "mcp-lite") return true;
    const extensions = this.#capabilities?.extensions;
    return isObject(extensions) && extensions[TASKS_EXTENSION] !== undefined;
  }

  /** Whether the remote serves a feature (a remote that declared nothing is asked). */
  #serves(feature: string): boolean {
    return this.#capabilities === undefined || this.#capabilities[feature] !== undefined;
  }

  /** A list the wire may not carry (MCP-lite has no resources): `undefined` when the remote has none. */
  async #optional<T>(list: () => Promise<T>): Promise<T | undefined> {
    try {
      return await list();
    } catch (error) {
      if (this.#capabilities !== undefined) throw error; // declared, so its failure is the remote's
      return undefined;
    }
  }

  /**
   * The definitions of a list as the remote now lists it, in its order: the one made before for a listing unchanged,
   * a new one for a listing new or changed (one that cannot be served here is left out, with a warning).
   *
   * @returns The list, or `undefined` when nothing differs.
   */
  #follow<L, T extends { readonly features?: readonly Feature[] }>(
    held: Held<T>,
    listed: [string, L][],
    make: (listing: L) => T,
  ): Held<T> | undefined {
    const next: Held<T> = new Map();
    for (const [key, listing] of listed) {
      const json = JSON.stringify(listing);
      const kept = held.get(key);
      if (kept?.json === json) {
        next.set(key, kept);
        continue;
      }
      try {
        const definition = make(listing);
        for (const feature of definition.features ?? []) this.features.add(feature);
        next.set(key, { json, definition });
      } catch (error) {
        this.#warn(`proxy: ${key} of the remote cannot be served here: ${(error as Error).message}`);
      }
    }
    const before = [...held.values()], after = [...next.values()];
    return before.length === after.length && before.every((entry, i) => entry === after[i]) ? undefined : next;
  }

  /** Tells the listeners a list changed (once the held list is set: they read it). */
  #raise(kind: "tools" | "prompts" | "resources"): void {
    const change: RegistryChange = { kind };
    for (const listener of this.#listeners) listener(change);
  }
}

/** The definitions of a held list, in order. */
function definitions<T>(held: Held<T>): IterableIterator<T> {
  return [...held.values()].map((entry) => entry.definition).values();
}
