/**
 * `subscriptions/listen` (2026-07-28): a stream that stays open and carries the notifications the
 * client asked for: list changes of tools, prompts and resources, and updates of chosen resources (each
 * watched while the stream is open: a proxied one is subscribed to at its remote).
 * The acknowledgement comes first; every message carries the subscription id (the request's id).
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import { callerKey, heardBy, type RegistryChange, registryOf, scoping, type WatchedResource } from "../../core/mod.ts";
import { isObject } from "../../internal/is-object.ts";
import { notificationMessage } from "../jsonrpc.ts";
import { META } from "./envelope.ts";
import { featureResource } from "./feature-methods.ts";
import { type McpMethod, Subscription } from "./mcp-request.ts";

/** What may list its changes: `<kind>ListChanged` in the filter asks for `notifications/<kind>/list_changed`. */
const KINDS = ["tools", "prompts", "resources"] as const;

/**
 * Opens a subscription stream. Only the requested notifications are sent; resource subscriptions are
 * honoured for URIs some resource answers and the caller may read.
 *
 * @param ctx The binding.
 * @param request The request.
 * @returns The subscription.
 * @throws {ProtocolError} `invalid_request` when the client does not accept SSE, `invalid_params` for
 *   a malformed `notifications` filter.
 */
export const subscriptionsListen: McpMethod = (ctx, request) => {
  if (!request.sse) {
    throw new ProtocolError(
      "invalid_request",
      "Invalid Request: subscriptions/listen needs Accept: text/event-stream",
    );
  }
  const wanted = request.rpc.params.notifications;
  if (!isObject(wanted)) {
    throw new ProtocolError("invalid_params", "Invalid params: notifications must be an object");
  }
  const filter = wanted as Record<string, unknown>;
  const honoured: Record<string, unknown> = {};
  const meta = { [META.subscriptionId]: request.rpc.id };
  const message = (method: string, params: Record<string, unknown> = {}) =>
    notificationMessage(method, { ...params, _meta: meta });
  const listChanged: Record<string, string> = {}; // by the kind of definition that changed
  for (const kind of KINDS) {
    if (filter[`${kind}ListChanged`] !== true) continue;
    honoured[`${kind}ListChanged`] = true;
    listChanged[kind] = message(`notifications/${kind}/list_changed`);
  }
  const uris = new Map<string, WatchedResource>(); // each honoured URI, with the resource that answers it
  const subscriptions = filter.resourceSubscriptions;
  if (subscriptions !== undefined) {
    if (!Array.isArray(subscriptions)) {
      throw new ProtocolError(
        "invalid_params",
        "Invalid params: resourceSubscriptions must be an array of URIs",
      );
    }
    for (const uri of subscriptions) {
      if (typeof uri !== "string") continue;
      // A resource the caller may not read is not honoured, as an unknown one is not.
      const resolved = featureResource(registryOf(ctx.core), uri);
      if (resolved !== undefined && scoping.holds(resolved.resource.scopes, request.host.auth)) {
        uris.set(uri, resolved.resource);
      }
    }
    honoured.resourceSubscriptions = [...uris.keys()];
  }
  // A stateless stream has no session: it is told apart from another caller by its principal only.
  const caller = callerKey(request.host.auth, undefined);
  const registry = registryOf(ctx.core);
  return new Subscription((writer, close) => {
    // Acknowledged once the stream hears every change (a notifier may subscribe it first).
    const stop = registry.listen((change: RegistryChange) => {
      if (change.kind === "resource-updated") {
        if (!heardBy(change, caller)) return; // another caller's (its own session at a proxy's remote)
        if (uris.has(change.uri)) writer.event(message("notifications/resources/updated", { uri: change.uri }));
        return;
      }
      // A log outside any request has no entry: never sent here (MCP 2026-07-28, Logging: Per-request log level).
      const text = listChanged[change.kind];
      if (text !== undefined) writer.event(text);
    }, () => writer.event(message("notifications/subscriptions/acknowledged", { notifications: honoured })));
    // Watched while the stream is open: a proxied resource is subscribed to at its remote meanwhile.
    const unwatch = [...uris].map(([uri, resource]) => resource.watch?.(uri, caller));
    // MCP 2026-07-28, Subscriptions: a server ends one gracefully with its result, the subscription id in `_meta`
    // (as it drains, `server.drain()`); the client listens again, elsewhere or after a restart.
    const release = registry.runtime.hold(() => close({ _meta: meta }));
    return () => {
      release();
      stop();
      for (const done of unwatch) done?.();
    };
  });
};
