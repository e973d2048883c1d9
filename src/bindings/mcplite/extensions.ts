/**
 * Extensions on MCP-lite (SEP-2133, as this SDK's MCP-lite extension E5): an extension's methods answer on the
 * JSON-RPC endpoints (`POST {base}/rpc`, `/calltools`) as the envelope's `method`, inside request middleware, with
 * the caller's `ctx.auth` and the method's scopes required; its notifications are answered `{}`, or 202 with no body
 * when sent without an id, their failure going to `onError`. A request declares its client's capabilities in `_meta`
 * (MCP 2026-07-28's key); its JSON answers stream nothing; on stdio and a WebSocket an extension's messages are MCP's.
 *
 * @module
 */
import { type Extension, type Feature, runRequest } from "../../core/mod.ts";
import { runOnWire } from "../../extension/run-on-wire.ts";
import type { LiteGet } from "./methods.ts";
import { LiteExtensionStream } from "./extension-stream.ts";

type Method = Extension["methods"] extends ReadonlyMap<string, infer M> ? M : never;

/**
 * An extension feature's MCP-lite part: its request methods, by name, answered as a `get`; and its entry in the
 * `/listtools` body's `extensions` (E5).
 */
export interface LiteExtensionFeature extends Feature {
  /** The methods, and what the extension adds to the listing. */
  readonly mcplite: {
    readonly methods: Readonly<Record<string, LiteGet>>;
    readonly listed: (body: { extensions?: Record<string, unknown> }) => void;
  };
}

/**
 * Serves one extension method on MCP-lite's JSON-RPC endpoints; a notification of the client's, too, answered
 * with an empty result (MCP-lite has no notifications: a client sends one as a request), or, sent without an id, not
 * at all.
 */
function served(
  extension: Pick<Extension, "advertised">,
  name: string,
  method: Pick<Method, "params" | "scopes"> & { readonly handle: (...args: never[]) => unknown },
  notification: boolean,
): LiteGet {
  return {
    kind: "get",
    paths: [],
    ...(notification ? { notification: true as const } : {}),
    answer(registry, rpc, caller) {
      const { signal: source, meta, host } = caller;
      const request = { method: name, params: rpc.params, meta, signal: source, host };
      const signal = source instanceof AbortSignal ? source : source.signal;
      // A client that accepts SSE may hear the method's notifications, and the method may hold its request open.
      const stream = !notification && meta.headers.get("accept")?.includes("text/event-stream")
        ? new LiteExtensionStream(registry, host, rpc.id ?? null, signal)
        : undefined;
      const answered = runRequest(
        registry,
        request,
        (ctx) =>
          runOnWire(extension, name, method, rpc.params, {
            registry,
            meta,
            auth: ctx.auth,
            get signal() {
              return stream?.signal ?? signal;
            },
            notification,
            stream,
          }),
      );
      return stream === undefined ? answered : stream.answer(answered);
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
export function extensionOnLite(
  extension: Pick<Extension, "id" | "advertised" | "methods" | "notifications">,
): LiteExtensionFeature {
  const methods: Record<string, LiteGet> = Object.create(null); // looked up by any name a client sends
  for (const [name, message] of extension.methods) methods[name] = served(extension, name, message, false);
  for (const [name, message] of extension.notifications) methods[name] = served(extension, name, message, true);
  const listed = (body: { extensions?: Record<string, unknown> }) => {
    (body.extensions ??= {})[extension.id] = extension.advertised;
  };
  return Object.freeze({ mcplite: { methods: Object.freeze(methods), listed } });
}
