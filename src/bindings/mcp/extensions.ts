/**
 * Extensions on MCP (SEP-2133): an extension's request methods and client notifications served on every
 * revision, and its settings advertised in `capabilities.extensions[id]`, which `server/discover`
 * (2026-07-28) and `initialize` (2025) both carry (`featureExtensions()`). A method checks its params
 * against the extension's schema, runs its handler with what the client declared, and answers with its
 * result; a notification is checked the same way and never answered. Handlers talk to the client through
 * the request's channel: notifications on its stream, and on the 2025 revisions requests
 * (`PendingRequests.ask`, as elicitation does).
 *
 * @module
 */
import { type CallSink, clientViewOf, type Extension } from "../../core/mod.ts";
import { McpliteError, ProtocolError } from "../../errors/error.ts";
import { isObject } from "../../internal/is-object.ts";
import type { McpFeature, McpMethods } from "./feature-methods.ts";
import { finishResult } from "./finish-result.ts";
import type { Channel, McpContext, McpMethod, McpRequest } from "./mcp-request.ts";
import { callMetaOf } from "./sink.ts";

type Method = Extension["methods"] extends ReadonlyMap<string, infer M> ? M : never;
type Context = Parameters<Method["handle"]>[1];

/** A call of an extension method has no channel for questions to the client (`ctx` offers none). */
const NO_INPUT: CallSink = {};

/**
 * Checks params against an extension message's schema: MCP's own `_meta` (the 2026-07-28 envelope, a
 * progress token) is not part of them.
 *
 * @throws {ProtocolError} `invalid_params` (-32602), the issues in its data.
 */
async function checked(name: string, message: Pick<Method, "params">, request: McpRequest): Promise<unknown> {
  const { _meta: _, ...params } = request.rpc.params;
  const result = await message.params.validate(params);
  if (result.ok) return result.value;
  const detail = result.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
  throw new ProtocolError("invalid_params", `Invalid params for ${name}: ${detail}`, {
    data: { issues: result.issues },
  });
}

/**
 * A handler's `ctx`: what the client declared, the signal, and the request's channel to the client. A
 * notification of the client's (`answers` false) has a stream only on a connection (stdio, a WebSocket);
 * over HTTP its POST is answered 202 at once. Server→client requests exist on the 2025 revisions only
 * (MCP 2026-07-28 asks through input-required results, SEP-2322).
 */
function contextOf(ctx: McpContext, request: McpRequest, channel: Channel, answers: boolean): Context {
  const streams = answers || channel.persistent;
  return {
    client: clientViewOf(callMetaOf(request), NO_INPUT),
    get signal() {
      return channel.signal;
    },
    notify: (method, params = {}) => {
      if (streams) channel.notify(method, { ...params });
      return Promise.resolve();
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
 * Serves one extension method. The params are what the request sent less MCP's own `_meta` (the
 * 2026-07-28 envelope, a progress token); a mismatch is `invalid_params` (-32602) with the issues in
 * its data. A handler that answers anything but a JSON object fails as an internal error.
 *
 * @param name The method's name.
 * @param method The extension's method.
 * @returns The MCP method.
 */
function served(name: string, method: Method): McpMethod {
  return async (ctx, request, channel) => {
    const params = await checked(name, method, request);
    const result = await method.handle(params, contextOf(ctx, request, channel, true));
    if (!isObject(result) || Array.isArray(result)) {
      throw new TypeError(`the extension method ${name} answered ${typeof result}, not a JSON object`);
    }
    return finishResult({ ...result }, request.envelope, ctx.serverInfo);
  };
}

/**
 * Serves one notification of the client's: run when a notification of its name arrives (`route()`), never
 * answered; invalid params and the handler's failure go to the server's `onError`. A request of its name
 * (how an MCP-lite client sends it over a connection, MCP-lite having no notifications) runs it the same and
 * is answered: an empty result, or the error.
 *
 * @param name The notification's name.
 * @param notification The extension's notification.
 * @returns The MCP method, marked as a notification's.
 */
function notified(name: string, notification: Notification): McpMethod {
  const method = async (ctx: McpContext, request: McpRequest, channel: Channel) => {
    const answers = request.rpc.id !== undefined;
    try {
      await notification.handle(await checked(name, notification, request), contextOf(ctx, request, channel, answers));
    } catch (error) {
      if (answers) throw error;
      ctx.report(error);
    }
    return finishResult({}, request.envelope, ctx.serverInfo);
  };
  return Object.assign(method, { notification: true as const });
}

type Notification = Extension["notifications"] extends ReadonlyMap<string, infer N> ? N : never;

/**
 * The MCP feature of an extension: its methods and notifications on both eras, and its entry in the
 * capabilities.
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
 * assert.deepEqual(feature.mcp.extensions, { "org.example/ledger": {} });
 * ```
 */
export function extensionOnMcp(
  extension: Pick<Extension, "id" | "advertised" | "methods" | "notifications">,
): McpFeature {
  const methods: Record<string, McpMethod> = {};
  for (const [name, method] of extension.methods) methods[name] = served(name, method);
  for (const [name, notification] of extension.notifications) methods[name] = notified(name, notification);
  const both: McpMethods = Object.freeze(methods);
  return Object.freeze({
    mcp: { modern: both, legacy: both, extensions: { [extension.id]: extension.advertised } },
  });
}
