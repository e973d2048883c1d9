/**
 * Resources over MCP: `resources/list`, `resources/templates/list`, `resources/read`, and the 2025
 * revisions' `resources/subscribe` / `resources/unsubscribe`.
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
// Ahead of the core facade: through ./tasks.ts, the engine (src/jobs/) comes early in a bundle, as it gzips best.
import { requireCapability } from "./lifecycle.ts";
import {
  contentsFromValue,
  describeResource,
  notFound,
  registryOf,
  runHandler,
  sameGroupAs,
  scoping,
  withResultMeta,
} from "../../core/mod.ts";
import { resolveResource } from "../resolve-resource.ts";
import { inputRequiredResult } from "./input-required.ts";
import { scopedList } from "./scoped-list.ts";
import type { McpMethod, McpRequest } from "./mcp-request.ts";
import { handlerCallerOf } from "./sink.ts";
import { completionComplete } from "./completion.ts";
import type { McpFeature } from "./feature-methods.ts";
import { ownLayer } from "./request-middleware.ts";

/** Lists the static resources a caller may read. */
export const resourcesList: McpMethod = /* @__PURE__ */ scopedList(
  "resources",
  "mcp:resources",
  "resources",
  (visible) => visible.filter((r) => r.template === undefined).map(describeResource),
);

/** Lists the resource templates a caller may read. */
export const resourceTemplatesList: McpMethod = /* @__PURE__ */ scopedList(
  "resources",
  "mcp:templates",
  "resourceTemplates",
  (visible) => visible.filter((r) => r.template !== undefined).map(describeResource),
);

function uriOf(request: McpRequest): string {
  const uri = request.rpc.params.uri;
  if (typeof uri !== "string" || uri === "") {
    throw new ProtocolError("invalid_params", "Invalid params: uri must be a string");
  }
  return uri;
}

/**
 * Reads a resource: the static URI first, then the templates in registration order. An unknown URI is
 * an error (-32602 with `data.uri` on 2026-07-28, -32002 on the 2025 revisions), never empty contents.
 * A read handler that asks the client gets an input round on 2026-07-28 (its result carries no
 * caching hint and no `Cache-Control`), and server→client requests on the 2025 revisions. A resource
 * with scopes the caller lacks is refused (403 `insufficient_scope`) before it is read.
 *
 * @param ctx The binding.
 * @param request The request.
 * @returns The result.
 * @throws {ProtocolError} `invalid_params` for a missing uri, `resource_not_found` for an unknown one,
 *   `permission_denied` for a missing scope.
 */
export const resourcesRead: McpMethod = /* @__PURE__ */ ownLayer(async (ctx, request, channel) => {
  const registry = registryOf(ctx.core);
  requireCapability(registry, request.envelope.era, "resources", "resources/read");
  const uri = uriOf(request);
  const find = () => {
    const resolved = resolveResource(registry, uri);
    if (resolved === undefined) throw notFound(uri);
    return sameGroupAs({ ...resolved, scopes: resolved.resource.scopes }, resolved.resource);
  };
  const read = await runHandler(
    registry,
    {
      method: "resources/read",
      name: uri,
      scope: `resource:${uri}`,
      arguments: { uri },
      ...handlerCallerOf(ctx, request, channel),
    },
    find,
    async ({ resource, variables }, call) => {
      const hint = resource.cache ?? ctx.settings.readCache;
      channel.cache(hint);
      return { resource, hint, value: await resource.read(variables, call, uri), call };
    },
  );
  if (read.asked) return inputRequiredResult(read.outcome);
  const { resource, hint, value, call } = read.value;
  const contents = contentsFromValue(value, uri, resource.mimeType);
  const result: Record<string, unknown> = request.envelope.era === "modern"
    ? { contents, ttlMs: hint.ttlMs, cacheScope: hint.scope }
    : { contents };
  return withResultMeta(result, call);
});

/**
 * `resources/subscribe` and `resources/unsubscribe` (2025 era), for a known resource the caller may read. On a
 * connection (stdio, a WebSocket) `ConnectionPushes` follows the answered request. Over HTTP the updates need the
 * session's `GET` stream (MCP 2025-11-25, Transports: "Listening for Messages from the Server"), served with
 * `sessionStreams()`, which keeps the subscription; a stateless server has none, so it refuses the method rather
 * than acknowledge a subscription nothing would serve, and does not advertise `subscribe` there. 2026 clients
 * subscribe through `subscriptions/listen`.
 *
 * @param ctx The binding.
 * @param request The request.
 * @param channel Where the request runs: a connection carries its own subscriptions.
 * @returns The result.
 * @throws {ProtocolError} `method_not_found` over HTTP without `sessionStreams()`, `resource_not_found` for an
 *   unknown URI, `permission_denied` for one whose scopes the caller lacks; see `SessionStreams.subscribe`.
 */
export const resourcesSubscribe: McpMethod = (ctx, request, channel) => {
  const { method } = request.rpc, streams = !channel.persistent && ctx.streams;
  if (streams === undefined) throw new ProtocolError("method_not_found", `Method not found: ${method} over HTTP`);
  requireCapability(registryOf(ctx.core), request.envelope.era, "resources", method);
  const uri = uriOf(request);
  const resolved = resolveResource(registryOf(ctx.core), uri);
  if (resolved === undefined) throw notFound(uri);
  scoping.require(resolved.resource.scopes, request.host.auth, `resource "${uri}"`);
  if (streams) streams.subscribe(request);
  return {};
};

const RESOURCE_METHODS = {
  "resources/list": resourcesList,
  "resources/templates/list": resourceTemplatesList,
  "resources/read": resourcesRead,
  "completion/complete": completionComplete,
};

/**
 * The MCP methods that serve resources and templates, brought by `defineResource()` and by skills; the
 * 2025 revisions add per-resource subscriptions (2026-07-28 has `subscriptions/listen` instead).
 */
export const RESOURCES_ON_MCP: McpFeature = {
  mcp: {
    modern: RESOURCE_METHODS,
    // Pure (no getters run), so that a server without resources leaves this table out of its bundle.
    legacy: /* @__PURE__ */ Object.assign({}, RESOURCE_METHODS, {
      "resources/subscribe": resourcesSubscribe,
      "resources/unsubscribe": resourcesSubscribe,
    }),
    resolve: resolveResource,
  },
};
