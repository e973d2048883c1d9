/**
 * An extension whose messages are passed on (`../../core/extension-forward.ts`) on MCP: advertised in
 * `capabilities.extensions[id]` as one of ours is (SEP-2133), every request and client notification under its
 * identifier routed to the forwarder, on both eras. A notification is never answered: what fails goes to the
 * server's `onError`.
 *
 * @module
 */
import type { Extension } from "../../core/mod.ts";
import type { ExtensionForward } from "../../core/extension-forward.ts";
import { finishResult } from "./finish-result.ts";
import type { McpFeature } from "./feature-methods.ts";
import type { McpMethod } from "./mcp-request.ts";
import { callMetaOf } from "./sink.ts";

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
