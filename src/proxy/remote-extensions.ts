/**
 * The remote's extensions (SEP-2133, `capabilities.extensions`), served by the proxy: each advertised as the
 * remote advertises it, its requests and client notifications passed on to the remote (through the caller's own
 * session, where callers have one: ./caller-sessions.ts), and what the remote notifies on a request's stream
 * passed back to the caller. Served as an extension of ours is (`defineExtension()`), on MCP. The tasks extension
 * is not passed on: the proxy makes the remote's tasks its own promises (./remote-handle.ts).
 *
 * @module
 */
import type { CallContext } from "../core/call/call-context.ts";
import type { Extension } from "../core/definitions/extension.ts";
import { type ExtensionForward, forwardedOnMcp } from "../bindings/mcp/extension-forward.ts";
import { defineExtension, officialMethods } from "../extension/define-extension.ts";
import { McpliteError, ProtocolError } from "../errors/error.ts";
import { isObject } from "../internal/is-object.ts";
import { TASKS_EXTENSION } from "../internal/mcp-wire.ts";
import type { HopOptions } from "./hop-options.ts";
import { remoteError } from "./remote-error.ts";
import { remoteResultMeta } from "./remote-meta.ts";

/**
 * The extensions to serve of those the remote declared.
 *
 * @param capabilities The remote's capabilities.
 * @param exclude The identifiers not to serve (`ProxyOptions.excludeExtensions`).
 * @param hop How the second hop goes.
 * @param warn Hears of one that cannot be served (an identifier outside SEP-2133's grammar, or reserved).
 * @returns The extensions.
 */
export function remoteExtensions(
  capabilities: Record<string, unknown> | undefined,
  exclude: readonly string[],
  hop: HopOptions,
  warn: (message: string) => void,
): Extension[] {
  const declared = capabilities?.extensions;
  if (!isObject(declared)) return [];
  const served: Extension[] = [];
  const forward = forwarder(hop);
  for (const [id, settings] of Object.entries(declared)) {
    if (id === TASKS_EXTENSION || exclude.includes(id)) continue;
    try {
      const names = officialMethods(id);
      const extension = defineExtension(id, (e) => [forwardedOnMcp(e, names, forward)]);
      served.push(extension.settings(isObject(settings) && !Array.isArray(settings) ? settings : {}));
    } catch (error) {
      warn(`proxy: the remote's extension ${id} cannot be served here: ${(error as Error).message}`);
    }
  }
  return served;
}

/** Passes a message on to the remote, through the caller's client, and its answer (or error) back. */
function forwarder(hop: HopOptions): ExtensionForward {
  return async (message) => {
    try {
      return await hop.withClient(message as Pick<CallContext, "auth" | "meta">, async (client) => {
        const options = { signal: message.signal };
        if (message.notification) {
          await client.notify(message.method, message.params, options);
          return {};
        }
        const result = await client.request(message.method, message.params, {
          ...options,
          onNotification: message.notify,
        });
        // What describes the second hop (its revision's `resultType`, its wire's `_meta` keys) is not the result's.
        const { resultType: _, _meta, ...own } = result;
        const meta = remoteResultMeta(_meta, client.wire);
        return meta === undefined ? own : { ...own, _meta: meta };
      });
    } catch (error) {
      // The client's word for a method the remote does not serve (MCP 2026-07-28's 404): the caller's -32601.
      if (error instanceof McpliteError && error.code === "unsupported") {
        throw new ProtocolError("method_not_found", `Method not found: ${message.method}`);
      }
      throw remoteError(error, hop.retryAfterMs, hop.name);
    }
  };
}
