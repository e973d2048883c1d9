/**
 * The remote's lists mirrored on a server of ours: each tool, prompt, resource and template the remote
 * lists becomes a definition that forwards to it; a later sync adds what the remote added, replaces what
 * it changed and removes what it dropped, so a grouping server (and its `list_changed` listeners) follows.
 *
 * @module
 */
import type { Server } from "../server/server.ts";
import type { ToolInfo } from "../client/transport.ts";
import { REDEEM_TOOL } from "../core/redeem.ts";
import { isObject } from "../internal/is-object.ts";
import { TASKS_EXTENSION } from "../internal/mcp-wire.ts";
import type { HopOptions } from "./hop-options.ts";
import { proxiedPrompt } from "./proxied-prompt.ts";
import { proxiedResource } from "./proxied-resource.ts";
import { proxiedTool } from "./proxied-tool.ts";
import type { Remote } from "./remote.ts";

/** What the remote said it serves (`capabilities`), when it said (MCP); `undefined`: ask for everything. */
export type RemoteCapabilities = Record<string, unknown> | undefined;

/** One kind of definition mirrored: by key, the listing it was made from (as JSON). */
type Held = Map<string, string>;

/** Keeps a server in step with the remote's lists. */
export class Mirror {
  readonly #server: Server;
  readonly #remote: Remote;
  readonly #hop: HopOptions;
  readonly #capabilities: RemoteCapabilities;
  readonly #warn: (message: string) => void;
  readonly #tools: Held = new Map();
  readonly #prompts: Held = new Map();
  readonly #resources: Held = new Map();

  /**
   * Creates the mirror of a remote on a server.
   *
   * @param server The server the definitions go on.
   * @param remote The remote.
   * @param hop How the second hop goes.
   * @param capabilities What the remote serves.
   * @param warn Hears of a remote definition that cannot be served here.
   */
  constructor(
    server: Server,
    remote: Remote,
    hop: HopOptions,
    capabilities: RemoteCapabilities,
    warn: (message: string) => void,
  ) {
    this.#server = server;
    this.#remote = remote;
    this.#hop = hop;
    this.#capabilities = capabilities;
    this.#warn = warn;
  }

  /**
   * Reads the remote's tools again, and follows them.
   *
   * @param fresh Past the client's cache; else as the remote's `ttlMs` and `ETag` allow (a 304 costs no list).
   */
  async syncTools(fresh = true): Promise<void> {
    const tools: ToolInfo[] = await this.#remote.client.listTools({ fresh });
    const server = this.#server;
    // The remote's `redeem` is its own machinery (MCP-lite spec v0.042 §3.6): its promises become ours.
    const served = tools.filter((t) => t.name !== REDEEM_TOOL);
    this.#follow(this.#tools, served.map((t) => [t.name, t]), {
      remove: (name) => server.removeTool(name),
      add: (info) => server.tool(proxiedTool(info, this.#remote, this.#hop, this.#longRunning(info))),
    });
  }

  /** Reads the remote's prompts again, and follows them (none asked of a remote that declared none). */
  async syncPrompts(): Promise<void> {
    if (!this.#serves("prompts")) return;
    const prompts = await this.#optional(() => this.#remote.client.listPrompts());
    if (prompts === undefined) return;
    const server = this.#server, completes = this.#serves("completions");
    this.#follow(this.#prompts, prompts.map((p) => [String(p.name), p]), {
      remove: (name) => server.removePrompt(name),
      add: (listed) => server.prompt(proxiedPrompt(listed, this.#remote, this.#hop, completes)),
    });
  }

  /** Reads the remote's resources and templates again, and follows them. */
  async syncResources(): Promise<void> {
    if (!this.#serves("resources")) return;
    const client = this.#remote.client;
    const resources = await this.#optional(() => client.listResources());
    const templates = await this.#optional(() => client.listResourceTemplates());
    if (resources === undefined && templates === undefined) return;
    const listed = [...resources ?? [], ...templates ?? []];
    const server = this.#server, completes = this.#serves("completions");
    this.#follow(this.#resources, listed.map((r) => [String(r.uriTemplate ?? r.uri), r]), {
      remove: (uri) => server.removeResource(uri),
      add: (r) => server.resource(proxiedResource(r, this.#remote, this.#hop, completes)),
    });
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

  /** Removes what the remote dropped or changed, then adds what it added or changed. */
  #follow<T>(
    held: Held,
    listed: [string, T][],
    on: { remove(key: string): void; add(listing: T): void },
  ): void {
    const next = new Map(listed.map(([key, listing]) => [key, JSON.stringify(listing)]));
    for (const [key, json] of held) {
      if (next.get(key) === json) continue;
      on.remove(key);
      held.delete(key);
    }
    for (const [key, listing] of listed) {
      if (held.has(key)) continue;
      try {
        on.add(listing);
        held.set(key, next.get(key)!);
      } catch (error) {
        this.#warn(`proxy: ${key} of the remote cannot be served here: ${(error as Error).message}`);
      }
    }
  }
}
