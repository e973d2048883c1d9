/**
 * Extensions on MCP-lite (SEP-2133 methods, carried as this SDK's MCP-lite extension E5): an extension's
 * request methods answer on the JSON-RPC endpoints (`POST {base}/rpc`, `/calltools`) as the envelope's
 * `method`, inside the request middleware, as `prompts/get` does (E1); its client notifications too, sent as
 * requests (MCP-lite has no notifications) and answered with an empty result. MCP-lite declares no client
 * capabilities and its JSON answers stream nothing: `ctx.client.extensions` is `undefined`, `ctx.notify`
 * sends nothing and `ctx.request` rejects. On stdio and a WebSocket an extension's messages are MCP's (the
 * connection hands every message outside MCP-lite's table to MCP).
 *
 * @module
 */
import { clientViewOf, type Extension, type Feature, runRequest } from "../../core/mod.ts";
import { McpliteError, ProtocolError } from "../../errors/error.ts";
import { isObject } from "../../internal/is-object.ts";
import type { LiteGet } from "./methods.ts";

type Method = Extension["methods"] extends ReadonlyMap<string, infer M> ? M : never;

/** An extension feature's MCP-lite part: its request methods, by name, answered as a `get`. */
export interface LiteExtensionFeature extends Feature {
  /** The methods. */
  readonly mcplite: { readonly methods: Readonly<Record<string, LiteGet>> };
}

/**
 * Serves one extension method on MCP-lite's JSON-RPC endpoints; a notification of the client's, too, answered
 * with an empty result (MCP-lite has no notifications: a client sends one as a request).
 */
function served(
  name: string,
  method: Pick<Method, "params"> & { readonly handle: (...args: never[]) => unknown },
): LiteGet {
  return {
    kind: "get",
    paths: [],
    answer(registry, rpc, caller) {
      const { _meta: _, ...params } = rpc.params;
      const request = { method: name, params: rpc.params, meta: caller.meta, signal: caller.signal, host: caller.host };
      return runRequest(registry, request, async () => {
        const checked = await method.params.validate(params);
        if (!checked.ok) {
          const detail = checked.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
          throw new ProtocolError("invalid_params", `Invalid params for ${name}: ${detail}`, {
            data: { issues: checked.issues },
          });
        }
        const signal = caller.signal;
        const handle = method.handle as Method["handle"];
        const result = await handle(checked.value, {
          client: clientViewOf(caller.meta, {}),
          get signal() {
            return signal instanceof AbortSignal ? signal : signal.signal;
          },
          notify: async () => {},
          request: (asked) =>
            Promise.reject(new McpliteError("unsupported", `${asked}: MCP-lite has no server→client requests`)),
        });
        if (result === undefined) return {}; // a notification's
        if (!isObject(result) || Array.isArray(result)) {
          throw new TypeError(`the extension method ${name} answered ${typeof result}, not a JSON object`);
        }
        return result;
      });
    },
  };
}

/**
 * The MCP-lite feature of an extension: its request methods on the JSON-RPC endpoints.
 *
 * @param extension The extension.
 * @returns The feature.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { defineExtension } from "../../extension/define-extension.ts";
 * import { extensionOnLite } from "./extensions.ts";
 * const ledger = defineExtension("org.example/ledger")
 *   .method("org.example/ledger/get", v.object({ id: v.string() }), ({ id }) => ({ id }));
 * assert.deepEqual(Object.keys(extensionOnLite(ledger).mcplite.methods), ["org.example/ledger/get"]);
 * ```
 */
export function extensionOnLite(extension: Pick<Extension, "methods" | "notifications">): LiteExtensionFeature {
  const methods: Record<string, LiteGet> = Object.create(null); // looked up by any name a client sends
  for (const [name, message] of [...extension.methods, ...extension.notifications]) {
    methods[name] = served(name, message);
  }
  return Object.freeze({ mcplite: { methods: Object.freeze(methods) } });
}
