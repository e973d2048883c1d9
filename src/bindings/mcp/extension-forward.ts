/**
 * An extension served by passing its messages on (a proxied remote's, SEP-2133) on MCP: advertised in
 * `capabilities.extensions[id]` as one of ours is, every request and client notification under its identifier
 * (or one its official specification names) handed, on both eras, to a forwarder with who sent it, and answered
 * with the forwarder's answer. A notification is never answered: what fails goes to the server's `onError`.
 *
 * @module
 */
import type { AuthInfo, CallMeta, Extension } from "../../core/mod.ts";
import { finishResult } from "./finish-result.ts";
import type { McpFeature } from "./feature-methods.ts";
import type { McpMethod } from "./mcp-request.ts";
import { callMetaOf } from "./sink.ts";

/** A message passed on, with who sent it and the way back to them. */
export interface ForwardedMessage {
  /** The method. */
  readonly method: string;
  /** Its params, less MCP's own `_meta` (a progress token, the 2026-07-28 envelope: this hop's). */
  readonly params: Record<string, unknown>;
  /** Whether it is a notification (never answered). */
  readonly notification: boolean;
  /** The caller the server's authentication verified, if any. */
  readonly auth: AuthInfo | undefined;
  /** What is known of the caller (its session, its headers). */
  readonly meta: CallMeta;
  /** Aborts when the caller goes away or cancels. */
  readonly signal: AbortSignal;
  /**
   * Sends the caller a notification on the request's own stream (dropped where nothing streams).
   *
   * @param method The notification's method.
   * @param params Its params.
   */
  notify(method: string, params: Record<string, unknown>): void;
}

/** Answers a forwarded message: a request's result (a notification's is ignored). */
export type ExtensionForward = (message: ForwardedMessage) => Promise<Record<string, unknown>>;

/**
 * The MCP feature of a passed-on extension.
 *
 * @param extension Its identifier and what is advertised for it.
 * @param names The methods outside `${id}/` it passes on too (those its official specification names).
 * @param forward The forwarder.
 * @returns The feature.
 */
export function forwardedOnMcp(
  extension: Pick<Extension, "id" | "advertised">,
  names: readonly string[],
  forward: ExtensionForward,
): McpFeature {
  const method: McpMethod = async (ctx, request, channel) => {
    const answers = request.rpc.id !== undefined;
    const { _meta: _, ...params } = request.rpc.params;
    // A notification of the client's has a stream back only on a connection (stdio, a WebSocket).
    const streams = answers || channel.persistent;
    try {
      const result = await forward({
        method: request.rpc.method,
        params,
        notification: !answers,
        auth: request.host.auth,
        meta: callMetaOf(request),
        signal: channel.signal,
        notify: (name, sent) => {
          if (streams) channel.notify(name, { ...sent });
        },
      });
      return finishResult({ ...result }, request.envelope, ctx.serverInfo);
    } catch (error) {
      if (answers) throw error;
      ctx.report(error);
      return finishResult({}, request.envelope, ctx.serverInfo);
    }
  };
  const passed = Object.assign(method, { notification: true as const });
  const under = `${extension.id}/`;
  const forwards = (name: string) => name.startsWith(under) || names.includes(name);
  return Object.freeze({ mcp: { modern: {}, legacy: {}, extension, forward: { forwards, method: passed } } });
}
