/**
 * Extensions on MCP (SEP-2133): an extension's request methods served on every revision, and its
 * settings advertised in `capabilities.extensions[id]`, which `server/discover` (2026-07-28) and
 * `initialize` (2025) both carry (`addServedExtensions()`). A method checks its params against the
 * extension's schema, runs its handler with what the client declared, and answers with its result.
 *
 * @module
 */
import { type CallSink, clientViewOf, type Extension, registryOf } from "../../core/mod.ts";
import { ProtocolError } from "../../errors/error.ts";
import { isObject } from "../../internal/is-object.ts";
import { CachedBody } from "./caching.ts";
import { advertisedSettings, type McpFeature, type McpMethods } from "./feature-methods.ts";
import { finishResult } from "./finish-result.ts";
import type { McpMethod } from "./mcp-request.ts";
import { listReply } from "./pagination.ts";
import { callMetaOf } from "./sink.ts";

type Method = Extension["methods"] extends ReadonlyMap<string, infer M> ? M : never;
type Served = Pick<Extension, "id" | "advertised" | "methods">;

/** A call of an extension method has no channel for questions to the client (`ctx` offers none). */
const NO_INPUT: CallSink = {};

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
    const { _meta: _, ...params } = request.rpc.params;
    const checked = await method.params.validate(params);
    if (!checked.ok) {
      const detail = checked.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
      throw new ProtocolError("invalid_params", `Invalid params for ${name}: ${detail}`, {
        data: { issues: checked.issues },
      });
    }
    const registry = registryOf(ctx.core);
    const { envelope } = request;
    const result = await method.handle(checked.value, {
      client: clientViewOf(callMetaOf(request), NO_INPUT),
      signal: channel.signal,
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
    });
    if (result instanceof CachedBody) return result;
    if (!isObject(result) || Array.isArray(result)) {
      throw new TypeError(`the extension method ${name} answered ${typeof result}, not a JSON object`);
    }
    return finishResult({ ...result }, envelope, ctx.serverInfo);
  };
}

/**
 * The MCP feature of an extension: its methods on both eras, and the extension, whose entry the
 * capabilities carry.
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
  const both: McpMethods = Object.freeze(methods);
  return Object.freeze({ mcp: { modern: both, legacy: both, extension } });
}
