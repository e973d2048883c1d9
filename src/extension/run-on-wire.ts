/**
 * An extension's method or notification run on a wire without MCP's channel (MCP-lite's JSON-RPC endpoints,
 * gRPC's `CallMethod`; this SDK's MCP-lite extension E5): params checked against the schema, the handler run
 * with a `ctx` whose lists come whole (no pages, no caching hint), whose notifications go nowhere (the
 * answer is one JSON body) and whose requests to the client reject, as nothing carries them.
 *
 * @module
 */
import type { CallMeta } from "../core/call-context.ts";
import { clientViewOf } from "../core/client-view.ts";
import type { Extension, ExtensionContext } from "../core/extension.ts";
import type { Registry } from "../core/registry.ts";
import { McpliteError, ProtocolError } from "../errors/error.ts";
import { isObject } from "../internal/is-object.ts";

/** A method or a notification of an extension, as held. */
type Message = Extension["methods"] extends ReadonlyMap<string, infer M> ? M : never;

/**
 * Checks params against an extension message's schema; MCP's own `_meta` is not part of them.
 *
 * @param name The message's name.
 * @param message The extension's message.
 * @param sent The params as sent.
 * @returns The params, as the schema outputs them.
 * @throws {ProtocolError} `invalid_params` (-32602), the issues in its data.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { defineExtension } from "./define-extension.ts";
 * import { checkedParams } from "./run-on-wire.ts";
 * const ledger = defineExtension("org.example/ledger")
 *   .method("org.example/ledger/get", v.object({ id: v.string() }), ({ id }) => ({ id }));
 * const get = ledger.methods.get("org.example/ledger/get")!;
 * assert.deepEqual(await checkedParams("org.example/ledger/get", get, { id: "a1", _meta: {} }), { id: "a1" });
 * await assert.rejects(checkedParams("org.example/ledger/get", get, {}), { code: "invalid_params" });
 * ```
 */
export async function checkedParams(
  name: string,
  message: Pick<Message, "params">,
  sent: Readonly<Record<string, unknown>>,
): Promise<unknown> {
  const { _meta: _, ...params } = sent;
  const result = await message.params.validate(params);
  if (result.ok) return result.value;
  const detail = result.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
  throw new ProtocolError("invalid_params", `Invalid params for ${name}: ${detail}`, {
    data: { issues: result.issues },
  });
}

/**
 * Runs an extension's method (or notification, answered `{}`) off MCP.
 *
 * @param extension The extension (its settings are what `ctx.settings` reads).
 * @param name The message's name.
 * @param message The method or notification.
 * @param sent The params as sent.
 * @param caller The registry, what is known of the caller, and the request's signal.
 * @returns The handler's result, a JSON object.
 * @throws {ProtocolError} For params that fail the schema; `TypeError` for a result that is not an object.
 */
export async function runOnWire(
  extension: Pick<Extension, "advertised">,
  name: string,
  message: Pick<Message, "params"> & { readonly handle: (...args: never[]) => unknown },
  sent: Readonly<Record<string, unknown>>,
  caller: { readonly registry: Registry; readonly meta: CallMeta; readonly signal: AbortSignal },
): Promise<Readonly<Record<string, unknown>>> {
  const params = await checkedParams(name, message, sent);
  const { registry } = caller;
  const ctx: ExtensionContext = {
    client: clientViewOf(caller.meta, {}),
    signal: caller.signal,
    protocolVersion: "",
    settings: extension.advertised,
    served: {
      get skills() {
        return registry.skills;
      },
      skill: (uri) => registry.skill(uri),
    },
    page: (field, items) => ({ [field]: items() }),
    cacheable: (result) => result,
    notify: () => Promise.resolve(),
    request: (method) =>
      Promise.reject(new McpliteError("unsupported", `${method}: this wire carries no requests to the client`)),
  };
  const result = await (message.handle as Message["handle"])(params, ctx);
  if (result === undefined) return {}; // a notification's
  if (!isObject(result) || Array.isArray(result)) {
    throw new TypeError(`the extension method ${name} answered ${typeof result}, not a JSON object`);
  }
  return result;
}
