/**
 * Extensions on MCP (SEP-2133): an extension's methods and client notifications on every revision, its
 * settings in `capabilities.extensions[id]` (`server/discover`, `initialize`: `addServedExtensions()`). Params
 * are checked against the extension's schema; a notification is never answered. Handlers talk to the client
 * on the request's channel: notifications on its stream, and on the 2025 revisions requests
 * (`PendingRequests.ask`, as elicitation does).
 *
 * @module
 */
import { type CallSink, clientViewOf, type Extension, type ExtensionContext, registryOf } from "../../core/mod.ts";
import { McpliteError } from "../../errors/error.ts";
import { holdRequest } from "../../extension/held-request.ts";
import { checkedParams } from "../../extension/run-on-wire.ts";
import { isObject } from "../../internal/is-object.ts";
import { CachedBody } from "./caching.ts";
import { advertisedSettings, type McpFeature, type McpMethods } from "./feature-methods.ts";
import { finishResult } from "./finish-result.ts";
import type { Channel, McpContext, McpMethod, McpRequest } from "./mcp-request.ts";
import { listReply } from "./pagination.ts";
import { callMetaOf } from "./sink.ts";

type Method = Extension["methods"] extends ReadonlyMap<string, infer M> ? M : never;
type Notification = Extension["notifications"] extends ReadonlyMap<string, infer N> ? N : never;
type Served = Pick<Extension, "id" | "advertised" | "methods" | "notifications">;

/** A request held open (`ctx.holdOpen()`): what its hold answered once taken, and when it ended (its result sent). */
interface Held {
  taken?: { readonly caller: string; readonly id: string | number | null };
  readonly ended: Promise<void>;
}

/** A call of an extension method has no channel for questions to the client (`ctx` offers none). */
const NO_INPUT: CallSink = {};

/**
 * Admits a request: the caller (request middleware's, on `request.host`) holds the method's scopes, and its params
 * pass the message's schema (`checkedParams()`).
 */
function checked(name: string, message: Pick<Method, "params" | "scopes">, request: McpRequest): Promise<unknown> {
  return checkedParams(name, message, request.rpc.params, request.host.auth);
}

/**
 * A handler's `ctx`: what the client declared, the signal, and the request's channel to the client. A
 * notification of the client's (`answers` false) has a stream only on a connection (stdio, a WebSocket);
 * over HTTP its POST is answered 202 at once. Server→client requests exist on the 2025 revisions only
 * (MCP 2026-07-28 asks through input-required results, SEP-2322). `page()` and `cacheable()` answer as MCP's
 * own lists do (MCP 2026-07-28, Basic: Pagination; `CacheableResult`).
 */
function contextOf(
  extension: Served,
  name: string,
  ctx: McpContext,
  request: McpRequest,
  channel: Channel,
  answers: boolean,
  held: Held,
): ExtensionContext {
  const streams = answers || channel.persistent;
  const registry = registryOf(ctx.core);
  const { envelope } = request;
  let signal: AbortSignal | undefined; // a held request's: its channel's, or the server's drain
  return {
    client: clientViewOf(callMetaOf(request), NO_INPUT),
    auth: request.host.auth,
    protocolVersion: envelope.protocolVersion,
    settings: advertisedSettings(extension, ctx.settings.extensions),
    served: {
      get skills() {
        return registry.skills;
      },
      skill: (uri) => registry.skill(uri),
    },
    page: (field, items) => listReply(ctx, request, `ext:${name}:${envelope.era}`, field, items) as never,
    cacheable(result) {
      const hint = ctx.settings.listCache;
      const cached = envelope.era === "modern" ? { ...result, ttlMs: hint.ttlMs, cacheScope: hint.scope } : result;
      return new CachedBody(JSON.stringify(finishResult({ ...cached }, envelope, ctx.serverInfo)), hint) as never;
    },
    get signal() {
      return signal ?? channel.signal;
    },
    notify: (method, params = {}) => {
      if (streams) channel.notify(method, { ...params });
      return Promise.resolve();
    },
    holdOpen: () => {
      if (!streams || !channel.streaming) return undefined;
      if (held.taken === undefined) {
        // The one hold of every wire: out of the request budgets, and until the server drains (`server.drain()`),
        // when `signal` aborts, the stream still open for the last result.
        const id = request.rpc.id ?? null;
        const { drained, caller } = holdRequest(registry, request.host, request.host.auth, id, held.ended);
        signal = AbortSignal.any([channel.signal, drained]);
        held.taken = { caller, id };
      }
      return held.taken;
    },
    request: async (method, params = {}) => {
      if (!streams || !channel.streaming || request.envelope.era !== "legacy") {
        throw new McpliteError(
          "unsupported",
          `${method}: a server asks its client only on a 2025 revision's stream (MCP 2026-07-28 has no server→client requests)`,
        );
      }
      return await ctx.pending.ask(channel, request.session, method, { ...params }) as Record<string, unknown>;
    },
  };
}

/**
 * Runs a handler with what its `ctx.holdOpen()` holds: a held request ends a task after the handler, once the carrier
 * has sent its result (within the handler's promise's turn), and the server's drain waits for that.
 */
async function withHold<T>(handle: (held: Held) => T | Promise<T>): Promise<Awaited<T>> {
  let answered!: () => void;
  const held: Held = { ended: new Promise((resolve) => answered = resolve) };
  try {
    return await handle(held);
  } finally {
    if (held.taken !== undefined) setTimeout(answered);
  }
}

/**
 * Serves one extension method. The params are what the request sent less MCP's own `_meta` (the
 * 2026-07-28 envelope, a progress token); a mismatch is `invalid_params` (-32602) with the issues in
 * its data. A handler that answers anything but a JSON object fails as an internal error.
 *
 * @param extension The extension.
 * @param name The method's name.
 * @param method The extension's method.
 * @returns The MCP method.
 */
function served(extension: Served, name: string, method: Method): McpMethod {
  return async (ctx, request, channel) => {
    const params = await checked(name, method, request);
    const result = await withHold((held) =>
      method.handle(params, contextOf(extension, name, ctx, request, channel, true, held))
    );
    if (result instanceof CachedBody) return result;
    if (!isObject(result) || Array.isArray(result)) {
      throw new TypeError(`the extension method ${name} answered ${typeof result}, not a JSON object`);
    }
    return finishResult({ ...result }, request.envelope, ctx.serverInfo);
  };
}

/**
 * Serves one notification of the client's: run when a notification of its name arrives (`route()`), never
 * answered; invalid params and the handler's failure go to the server's `onError`. A request of its name (how an
 * MCP-lite client sends it over a connection, MCP-lite having no notifications) runs it the same and is answered
 * with an empty result, its failure going to `onError` as a notification's does (JSON-RPC 2.0, §4.1: what a
 * notification's handler does is never the client's answer).
 *
 * @param extension The extension.
 * @param name The notification's name.
 * @param notification The extension's notification.
 * @returns The MCP method, marked as a notification's.
 */
function notified(extension: Served, name: string, notification: Notification): McpMethod {
  const method = async (ctx: McpContext, request: McpRequest, channel: Channel) => {
    const answers = request.rpc.id !== undefined;
    try {
      await withHold(async (held) =>
        notification.handle(
          await checked(name, notification, request),
          contextOf(extension, name, ctx, request, channel, answers, held),
        )
      );
    } catch (error) {
      ctx.report(error);
    }
    return finishResult({}, request.envelope, ctx.serverInfo);
  };
  return Object.assign(method, { notification: true as const });
}

/**
 * The MCP feature of an extension: its methods and notifications on both eras, and the extension, whose
 * entry the capabilities carry.
 *
 * @param extension The extension.
 * @returns The feature.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { defineExtension } from "../../extension/define-extension.ts";
 * import { extensionOnMcp } from "./extensions.ts";
 * const ledger = defineExtension("org.example/ledger")
 *   .method("org.example/ledger/get", v.object({ id: v.string() }), ({ id }) => ({ id }));
 * const feature = extensionOnMcp(ledger);
 * assert.deepEqual(Object.keys(feature.mcp.modern), ["org.example/ledger/get"]);
 * assert.equal(feature.mcp.extension?.id, "org.example/ledger");
 * ```
 */
export function extensionOnMcp(extension: Served): McpFeature {
  const methods: Record<string, McpMethod> = {};
  for (const [name, method] of extension.methods) methods[name] = served(extension, name, method);
  for (const [name, notification] of extension.notifications) {
    methods[name] = notified(extension, name, notification);
  }
  const both: McpMethods = Object.freeze(methods);
  return Object.freeze({ mcp: { modern: both, legacy: both, extension } });
}
