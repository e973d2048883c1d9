/**
 * Discovery and the 2025 lifecycle: `server/discover`, `initialize`, `ping`, `logging/setLevel`, and
 * the capabilities both advertise.
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import { offersTasks, TASKS_EXTENSION } from "./tasks.ts";
import { CacheSlot, type CallMeta, LOG_LEVELS, type Registry, registryOf } from "../../core/mod.ts";
import { CachedBody } from "./caching.ts";
import { addServedExtensions } from "./feature-methods.ts";
import { type AddedSettings, NONE_ADDED } from "./mcp-options.ts";
import { type Era, logLevelOf, negotiateVersion, unsupportedVersion } from "./envelope.ts";
import { finishResult } from "./finish-result.ts";
import type { McpMethod } from "./mcp-request.ts";
import { META } from "../../internal/mcp-wire.ts";
import type { ResolvedOptions } from "../../server/mod.ts";
import { isObject } from "../../internal/is-object.ts";

type ClientInfo = NonNullable<CallMeta["clientInfo"]>;
type LogLevel = (typeof LOG_LEVELS)[number];

/** The capabilities, per era and carrier. */
const CAPABILITIES = /* @__PURE__ */ new CacheSlot<Capabilities>("mcp:capabilities");
/** The `server/discover` result, serialised. */
const DISCOVER = /* @__PURE__ */ new CacheSlot<CachedBody>("mcp:discover");

/** What the server can do, as the handlers registered make it. */
export interface Capabilities {
  /** Always present: `tools/list` is always served. */
  tools: Record<string, unknown>;
  /** Present when a prompt is registered. */
  prompts?: Record<string, unknown>;
  /** Present when a resource or template is registered. */
  resources?: Record<string, unknown>;
  /** Present when a prompt argument or template variable has a completer. */
  completions?: Record<string, unknown>;
  /** The 2025 revisions' `logging/setLevel`. */
  logging?: Record<string, unknown>;
  /**
   * Extensions: tasks (2026-07-28) when a tool is long-running, and those served (SEP-2133): skills
   * (SEP-2640) when skills are, MCP Apps (SEP-1865) when a tool has a view, the user's own.
   */
  extensions?: Record<string, Record<string, unknown>>;
}

/**
 * Describes what the server can do for an era; recomputed only when the registry changes. On
 * 2026-07-28, list changes and resource updates reach `subscriptions/listen` streams; on the 2025
 * revisions they are sent on a persistent carrier's connection (stdio, a WebSocket) and, over HTTP, on a
 * session's `GET` stream where `sessionStreams()` serves one; a stateless server has none, so it advertises
 * neither there. A server with a long-running tool offers the tasks extension on 2026-07-28.
 *
 * @param registry The registry.
 * @param era The era.
 * @param persistent Whether list changes and updates reach a 2025 client outside its requests (a connection, or
 *   a session's stream).
 * @param added What the binding's options add to the settings of the extensions served (`McpSettings.extensions`).
 * @returns The capabilities.
 */
export function serverCapabilities(
  registry: Registry,
  era: Era,
  persistent = false,
  added: AddedSettings = NONE_ADDED,
): Capabilities {
  const key = `${era}:${persistent}${added === NONE_ADDED ? "" : JSON.stringify(added)}`;
  return registry.cached(CAPABILITIES, key, () => {
    const pushes = era === "modern" || persistent; // list changes and updates can reach the client
    const caps: Capabilities = { tools: pushes ? { listChanged: true } : {} };
    let completions = false;
    for (const prompt of registry.prompts) {
      caps.prompts = pushes ? { listChanged: true } : {};
      completions ||= prompt.completers !== undefined;
    }
    for (const resource of registry.resources) {
      caps.resources = pushes ? { subscribe: true, listChanged: true } : {};
      completions ||= resource.completers !== undefined;
    }
    if (completions) caps.completions = {};
    if (era === "legacy") caps.logging = {};
    if (era === "modern" && offersTasks(registry)) caps.extensions = { [TASKS_EXTENSION]: {} };
    // The extensions served (SEP-2133: skills, MCP Apps, the user's), on every revision.
    addServedExtensions(registry, added, caps);
    return caps;
  });
}

/**
 * Fails with "method not found" when a capability is not advertised (404 on 2026-07-28).
 *
 * @param registry The registry.
 * @param era The era.
 * @param capability The capability a method belongs to.
 * @param method The method, for the message.
 * @throws {ProtocolError} `method_not_found`.
 */
export function requireCapability(registry: Registry, era: Era, capability: keyof Capabilities, method: string): void {
  if (serverCapabilities(registry, era)[capability] === undefined) {
    throw new ProtocolError("method_not_found", `Method not found: ${method} (this server has no ${capability})`);
  }
}

/**
 * `server/discover` (2026-07-28): versions, capabilities, instructions and caching hints, serialised
 * once per change.
 *
 * @param ctx The binding.
 * @param request The request.
 * @returns The discovery result, serialised once.
 */
export const discover: McpMethod = (ctx, request) => {
  const cached = registryOf(ctx.core).cached(DISCOVER, "", () => {
    const hint = ctx.settings.listCache;
    // Serialised: JSON leaves out `instructions` when the server has none, here and in `initialize` and `serverInfo`.
    const result = {
      supportedVersions: ctx.core.options.protocolVersions.modern,
      capabilities: serverCapabilities(registryOf(ctx.core), "modern", false, ctx.settings.extensions),
      instructions: ctx.core.options.instructions,
      ttlMs: hint.ttlMs,
      cacheScope: hint.scope,
    };
    // Every result names the server by name and version; discovery gives the whole `Implementation`.
    const serverInfo = { [META.serverInfo]: implementation(ctx.core.options) };
    return new CachedBody(JSON.stringify(finishResult(result, request.envelope, serverInfo)), hint);
  });
  return cached;
};

/**
 * `initialize` (2025 era): echoes a supported version, or offers the newest one, and opens a session
 * whose id the response carries as `Mcp-Session-Id`.
 *
 * @param ctx The binding.
 * @param request The request.
 * @returns The reply.
 */
export const initialize: McpMethod = (ctx, request, channel) => {
  const { protocolVersion: asked, capabilities, clientInfo } = request.rpc.params;
  const served = ctx.core.options.protocolVersions;
  // MCP 2025-11-25, Lifecycle: echo a served version, else offer the newest served one.
  const protocolVersion = negotiateVersion(asked, served);
  if (protocolVersion === undefined) throw unsupportedVersion(String(asked), served.modern, served.legacy);
  const result = {
    protocolVersion,
    capabilities: serverCapabilities(
      registryOf(ctx.core),
      "legacy",
      channel.persistent || !!ctx.streams,
      ctx.settings.extensions,
    ),
    serverInfo: implementation(ctx.core.options),
    instructions: ctx.core.options.instructions,
  };
  channel.openSession({
    protocolVersion,
    capabilities: isObject(capabilities) ? capabilities : undefined,
    clientInfo: isObject(clientInfo) ? clientInfo as ClientInfo : undefined,
    logLevel: undefined,
  });
  return result;
};

/**
 * The server as MCP's `Implementation` (MCP 2025-11-25 and 2026-07-28): name, version, and the title,
 * description, icons and website it was given.
 *
 * @param options The server's resolved options.
 * @returns The `serverInfo`.
 */
function implementation(options: ResolvedOptions): Record<string, unknown> {
  const { name, version, title, description, icons, websiteUrl } = options;
  return { name, version, title, description, icons, websiteUrl };
}

/**
 * `ping` (2025 era): an empty result.
 *
 * @returns The reply.
 */
export const ping: McpMethod = () => ({});

/**
 * `logging/setLevel` (2025 era): records the level for the session, on this instance. Without a
 * known session (another instance, or none sent), calls log at every level; the client filters.
 *
 * @param ctx The binding.
 * @param request The request.
 * @returns The reply.
 * @throws {ProtocolError} `invalid_params` for an unknown level.
 */
export const setLevel: McpMethod = (ctx, request) => {
  const level = logLevelOf(request.rpc.params.level ?? null); // a level is required: null is none of them
  const session = ctx.sessions.get(request.session);
  if (session !== undefined) session.logLevel = level;
  return {};
};
