/**
 * Extensions on MCP (SEP-2133): an extension's request methods served on every revision, and its
 * settings advertised in `capabilities.extensions[id]`, which `server/discover` (2026-07-28) and
 * `initialize` (2025) both carry (`featureExtensions()`). A method checks its params against the
 * extension's schema, runs its handler with what the client declared, and answers with its result.
 *
 * @module
 */
import { type CallSink, clientViewOf, type Extension } from "../../core/mod.ts";
import { ProtocolError } from "../../errors/error.ts";
import { isObject } from "../../internal/is-object.ts";
import type { McpFeature, McpMethods } from "./feature-methods.ts";
import { finishResult } from "./finish-result.ts";
import type { McpMethod } from "./mcp-request.ts";
import { callMetaOf } from "./sink.ts";

type Method = Extension["methods"] extends ReadonlyMap<string, infer M> ? M : never;

/** A call of an extension method has no channel for questions to the client (`ctx` offers none). */
const NO_INPUT: CallSink = {};

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
    const { _meta: _, ...params } = request.rpc.params;
    const checked = await method.params.validate(params);
    if (!checked.ok) {
      const detail = checked.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
      throw new ProtocolError("invalid_params", `Invalid params for ${name}: ${detail}`, {
        data: { issues: checked.issues },
      });
    }
    const client = clientViewOf(callMetaOf(request), NO_INPUT);
    const result = await method.handle(checked.value, { client, signal: channel.signal });
    if (!isObject(result) || Array.isArray(result)) {
      throw new TypeError(`the extension method ${name} answered ${typeof result}, not a JSON object`);
    }
    return finishResult({ ...result }, request.envelope, ctx.serverInfo);
  };
}

/**
 * The MCP feature of an extension: its methods on both eras, and its entry in the capabilities.
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
export function extensionOnMcp(extension: Pick<Extension, "id" | "advertised" | "methods">): McpFeature {
  const methods: Record<string, McpMethod> = {};
  for (const [name, method] of extension.methods) methods[name] = served(name, method);
  const both: McpMethods = Object.freeze(methods);
  return Object.freeze({
    mcp: { modern: both, legacy: both, extensions: { [extension.id]: extension.advertised } },
  });
}
