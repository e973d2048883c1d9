/**
 * `toolSearch()`: the `createServer({ toolSearch })` option for large tool sets. The lists show the
 * pinned tools, a search tool and a call-by-name tool; every tool stays callable. Why call-by-name
 * and not deferred tools revealed with `list_changed`: docs/guides/composing.md, "Tool search".
 *
 * @module
 */
import { REDEEM_TOOL } from "../core/long-running/redeem-args.ts";
import type { Definitions, Registry, ToolListing } from "../core/definitions/registry.ts";
import type { AnyTool } from "../core/definitions/tool.ts";
import { type Capability, capability } from "../server/server-capability.ts";
import { callToolTool } from "./call-tool-tool.ts";
import { DEFAULT_SYNONYMS } from "./query-terms.ts";
import { searchToolsTool } from "./search-tools-tool.ts";
import { type CatalogSettings, ToolCatalog } from "./tool-catalog.ts";

/** Options of {@link toolSearch}. */
export interface ToolSearchOptions {
  /** The tools listed beside the search and call tools (by name); a pinned name not registered is skipped. */
  readonly pinned?: readonly string[];
  /** How many tools a search answers when the model does not say (default 5, at most 50). */
  readonly limit?: number;
  /**
   * The most characters of JSON a found tool's input schema takes in the search's answer (default
   * 8192): a larger one is cut to the depth that fits (types, descriptions, short enums, required
   * names; marked `"x-digest": true`), as Microsoft Graph's body schemas of hundreds of kilobytes
   * need. `call_tool` still validates against the whole schema.
   */
  readonly maxSchemaBytes?: number;
  /**
   * Also reveal what is found, for hosts that refetch the list when told (MCP 2025-11-25, Tools, List
   * Changed Notification): the tools each search answers join the lists (the `max` most recently found,
   * default 20) and MCP clients hear `notifications/tools/list_changed`, so the host can offer them to
   * the model as tools of their own. The revealed set is the server instance's, shared by every caller:
   * for a server of one user (stdio, a local process). Default: off (the call tool needs nothing of the host).
   */
  readonly reveal?: boolean | { readonly max?: number };
  /** The search tool's name (default `search_tools`). */
  readonly searchTool?: string;
  /** The call-by-name tool's name (default `call_tool`). */
  readonly callTool?: string;
  /**
   * The weights, in the ranking (BM25F), of a tool name's action (its last segment: `sendMail` of
   * `me.sendMail`), the path before it (`me`), its description (with its title) and its arguments
   * (names and descriptions); default `{ action: 3, path: 1, description: 1.5, arguments: 0.3 }`.
   */
  readonly weights?: {
    readonly action?: number;
    readonly path?: number;
    readonly summary?: number;
    readonly description?: number;
    readonly arguments?: number;
  };
  /**
   * How much each segment of a tool name's path (`me.messages.message.reply`: 3) lowers its score,
   * so that the general operation comes before the ones nested in it (default 0.1: score / (1 + 0.1 × depth)).
   */
  readonly depthPenalty?: number;
  /**
   * How much a tool gains when the query names its action, the last segment of its name (`ListEvents`:
   * `list` and `event`; synonyms count): the user's verb and object say what is to be done, among the
   * tools about the same thing (default 4: score × (1 + 4 × the share of the action's words named)).
   */
  readonly actionBonus?: number;
  /**
   * Words users say mapped to the words the tools use (`{ ticket: ["issue"] }`, `{ file: ["item"] }` for
   * Microsoft Graph), added to the defaults, which hold the verbs of any API (leave, add, post → create;
   * store, save, set → create, update; put → add, create, update; apply, attach, tag → add, update; remove,
   * erase, drop → delete; show, read, fetch → get, list; …) and no one API's nouns; a phrase such as
   * `"set up"` stands for its synonyms alone; a synonym weighs as the word itself. One word's operation verbs
   * are alternatives: a tool holding two of them (`create-or-update-secret` for put) counts one. A tool
   * that removes something (`destructiveHint`, or a delete/remove/revoke… action) ranks after the others
   * unless the query asks for a removal (its words or their synonyms).
   */
  readonly synonyms?: Readonly<Record<string, readonly string[]>>;
  /**
   * An embedding model, for semantic search: called once per tool (its name, description and
   * arguments, on the first search after the tools change) and once per query. Its cosine
   * similarities are mixed with the lexical scores.
   */
  readonly embed?: (text: string) => Promise<ArrayLike<number>>;
  /** The embedder's share of the score, in [0, 1] (default 0.5; without `embed`, unused). */
  readonly semanticWeight?: number;
}

/**
 * Tool search for servers with many tools (hundreds, thousands: an OpenAPI import), as
 * `createServer({ toolSearch: toolSearch({ pinned }) })`. Every list (`tools/list`, MCP-lite's,
 * gRPC `GetTools`, Webtools' and OpenAPI's documents) shows only the `pinned` tools, the system tools
 * (`redeem`), a search tool (`search_tools`: the best matches for what the model wants to do, with
 * their input schemas, ranked by BM25F over names, descriptions and arguments, optionally mixed with
 * an embedder's similarities) and a call-by-name tool (`call_tool`: calls a found tool through the
 * same pipeline as a direct call). Every tool stays callable by its own name. Only the tools the
 * caller holds the scopes of are found.
 *
 * @param options The pinned tools, the result count, the names, the ranking's weights and synonyms,
 *   an embedder.
 * @returns The capability, for `createServer({ toolSearch })`.
 * @throws {TypeError} When `limit` or `semanticWeight` is out of range, or a name is invalid.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool, toolSearch } from "../../mod.ts";
 *
 * const server = createServer({ name: "mail", version: "1.0.0", toolSearch: toolSearch({ pinned: ["whoami"] }) })
 *   .tool(defineTool("whoami").describe("Tells who you are").handle(() => "ada"))
 *   .tool(defineTool("sendMail").describe("Sends an email").input(v.object({ to: v.string() })).handle(({ to }) => `sent to ${to}`))
 *   .tool(defineTool("listEvents").describe("Lists calendar events").handle(() => []));
 *
 * // The search and call tools are not among the server's typed tools: call them by any name.
 * const call = server.call.bind(server) as (name: string, args: object) => ReturnType<typeof server.call>;
 * const found = await call("search_tools", { query: "send an email" });
 * assert.equal(found.kind === "answer" && (found.result.structuredContent as any).tools[0].name, "sendMail");
 * const sent = await call("call_tool", { name: "sendMail", arguments: { to: "bob@example.com" } });
 * assert.deepEqual(sent.kind === "answer" && sent.result.content, [{ type: "text", text: "sent to bob@example.com" }]);
 * ```
 */
export function toolSearch(options: ToolSearchOptions = {}): Capability<"toolSearch"> {
  const limit = options.limit ?? 5;
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) throw new TypeError("toolSearch(): limit is 1 to 50");
  const semanticWeight = options.semanticWeight ?? 0.5;
  if (!(semanticWeight >= 0 && semanticWeight <= 1)) throw new TypeError("toolSearch(): semanticWeight is 0 to 1");
  const searchName = options.searchTool ?? "search_tools";
  const callName = options.callTool ?? "call_tool";
  const listed = new Set([...(options.pinned ?? []), searchName, callName]);
  return capability("toolSearch", (registry: Definitions) => {
    const catalog = searchCatalog(registry, options, new Set([searchName, callName]));
    const revealed = new Set<string>();
    const max = options.reveal === undefined || options.reveal === false
      ? 0
      : (options.reveal === true ? undefined : options.reveal.max) ?? 20;
    const onFound = max === 0 ? undefined : (names: readonly string[]) => {
      const before = [...revealed].join("\n");
      for (const name of [...names].reverse()) {
        revealed.delete(name); // the most recently found last
        revealed.add(name);
      }
      for (const name of revealed) if (revealed.size > max) revealed.delete(name);
      if ([...revealed].join("\n") !== before) registry.announce({ kind: "tools" }); // list_changed
    };
    registry.add(searchToolsTool(catalog, {
      name: searchName,
      limit,
      callTool: callName,
      maxSchemaBytes: options.maxSchemaBytes ?? 8192,
      onFound,
    }));
    registry.add(callToolTool(registry, catalog, { name: callName, searchTool: searchName }));
    registry.listing = listingOf((tool) => listed.has(tool.name) || revealed.has(tool.name));
  });
}

/**
 * The catalog tool search ranks with (BM25F, with the options' weights, synonyms and embedder), over every tool
 * but the `excluded` (the search and call tools; code mode's own).
 *
 * @param registry The server's definitions.
 * @param options The ranking's options.
 * @param excluded The tools never found.
 * @returns The catalog.
 */
export function searchCatalog(
  registry: Definitions,
  options: ToolSearchOptions,
  excluded: ReadonlySet<string>,
): ToolCatalog {
  return new ToolCatalog(registry, catalogSettings(options, excluded));
}

/**
 * How tool search ranks, from its options: the one ranking a server's search and the tool-quality check share.
 *
 * @param options The ranking's options.
 * @param excluded The tools never found.
 * @returns The settings, each default filled in.
 */
export function catalogSettings(options: ToolSearchOptions, excluded: ReadonlySet<string>): CatalogSettings {
  const weights = options.weights ?? {};
  return {
    weights: [
      weights.action ?? 3,
      weights.path ?? 1,
      weights.summary ?? 2,
      weights.description ?? 1,
      weights.arguments ?? 0.3,
    ],
    depthPenalty: options.depthPenalty ?? 0.1,
    actionBonus: options.actionBonus ?? 4,
    coverage: 1,
    synonyms: { ...DEFAULT_SYNONYMS, ...options.synonyms },
    embed: options.embed,
    semanticWeight: options.semanticWeight ?? 0.5,
    excluded,
  };
}

/**
 * The listing of a server whose lists show only some tools (tool search's, code mode's), and the system
 * tools (`redeem`); grouped under a prefix, the parent's listing agrees.
 *
 * @param shown Whether a tool of the server's own is listed.
 * @returns The listing, for `registry.listing`.
 */
export function listingOf(shown: (tool: AnyTool) => boolean): ToolListing {
  return Object.assign((tool: AnyTool) => shown(tool) || tool.name === REDEEM_TOOL, { under: mountedListing });
}

/**
 * The listing of a server that mounts a tool-search server's tools under `lead` (`server.group("crm", child)`): a
 * tool served under the prefix is listed when the child lists it, and the parent's own listing agrees.
 */
function mountedListing(this: ToolListing, lead: string, own: Registry, outer: ToolListing | undefined): ToolListing {
  const listing = (tool: AnyTool) => {
    const source = tool.name.startsWith(lead) ? own.get(tool.name.slice(lead.length)) : undefined;
    return (source === undefined || this(source)) && (outer === undefined || outer(tool));
  };
  return Object.assign(listing, { under: mountedListing }); // grouped again, it stacks again
}
