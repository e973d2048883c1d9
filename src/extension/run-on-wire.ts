/**
 * An extension's method or notification run on a wire without MCP's channel (MCP-lite's JSON-RPC endpoints,
 * gRPC's `CallMethod` and `CallMethodStream`; this SDK's MCP-lite extension E5): the caller's scopes and the params
 * checked, the handler run with a `ctx` whose lists come whole (no pages, no caching hint), whose notifications go
 * to the wire's stream where it has one (else nowhere: the answer is one JSON body), and whose requests to the client
 * reject, as nothing carries them. A notification is never answered with its failure: it goes to `onError`.
 *
 * @module
 */
import type { AuthInfo, CallMeta } from "../core/call/call-context.ts";
import { clientViewOf } from "../core/call/client-view.ts";
import type { Extension, ExtensionContext } from "../core/definitions/extension.ts";
import type { Registry } from "../core/definitions/registry.ts";
import { McpliteError, ProtocolError } from "../errors/error.ts";
import { isObject } from "../internal/is-object.ts";
import { META } from "../internal/mcp-wire.ts";
import { requireScopes } from "../core/definitions/scopes.ts";

/** A method or a notification of an extension, as held. */
type Message = Extension["methods"] extends ReadonlyMap<string, infer M> ? M : never;
/** What runs of a method or a notification: its schema, its scopes (a method's) and its handler. */
type Runnable = Pick<Message, "params" | "scopes"> & { readonly handle: (...args: never[]) => unknown };
/**
 * The registry, what is known of the caller, who it is (after request middleware), the request's signal (read
 * afresh: a held request's aborts on the server's drain too), and the wire's stream, where it has one.
 */
interface Caller {
  readonly registry: Registry;
  readonly meta: CallMeta;
  readonly auth: AuthInfo | undefined;
  readonly signal: AbortSignal;
  readonly stream?: WireStream;
}

/** A wire's stream to the client for one request (gRPC's `CallMethodStream`): its notifications, and its hold. */
export interface WireStream {
  /** Sends a notification on the request's stream (`ctx.notify()`). */
  notify(method: string, params: Readonly<Record<string, unknown>>): void;
  /** Holds the request open (`ctx.holdOpen()`), for the caller `ctx.auth` names. */
  holdOpen(auth: AuthInfo | undefined): { readonly caller: string; readonly id: string | number | null };
}

/**
 * Admits a message: refuses a caller without the method's scopes (`requireScopes()`: the refusal a tool's call gets,
 * before the params are read), then checks params against the message's schema; MCP's own `_meta` is not part of
 * them.
 *
 * @param name The message's name.
 * @param message The extension's message.
 * @param sent The params as sent.
 * @param auth The caller (`ctx.auth`).
 * @returns The params, as the schema outputs them.
 * @throws {ProtocolError} `unauthenticated` or `permission_denied` (its data naming `requiredScopes`) for a missing
 *   scope; `invalid_params` (-32602), the issues in its data.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { defineExtension } from "./define-extension.ts";
 * import { checkedParams } from "./run-on-wire.ts";
 * const ledger = defineExtension("org.example/ledger")
 *   .method("org.example/ledger/get", v.object({ id: v.string() }), ({ id }) => ({ id }), { scopes: ["ledger:read"] });
 * const get = ledger.methods.get("org.example/ledger/get")!;
 * const reader = { subject: "ada", scopes: ["ledger:read"] };
 * assert.deepEqual(await checkedParams("org.example/ledger/get", get, { id: "a1", _meta: {} }, reader), { id: "a1" });
 * await assert.rejects(checkedParams("org.example/ledger/get", get, {}, reader), { code: "invalid_params" });
 * await assert.rejects(checkedParams("org.example/ledger/get", get, { id: "a1" }, { subject: "bo", scopes: [] }), {
 *   code: "permission_denied",
 * });
 * ```
 */
export async function checkedParams(
  name: string,
  message: Pick<Message, "params" | "scopes">,
  sent: Readonly<Record<string, unknown>>,
  auth: AuthInfo | undefined,
): Promise<unknown> {
  requireScopes(message.scopes, auth, `extension method "${name}"`);
  const { _meta: _, ...params } = sent;
  const result = await message.params.validate(params);
  if (result.ok) return result.value;
  const detail = result.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
  throw new ProtocolError("invalid_params", `Invalid params for ${name}: ${detail}`, {
    data: { issues: result.issues },
  });
}

/**
 * Runs an extension's method, or a notification, off MCP. A notification is never answered with its failure (JSON-RPC
 * 2.0, §4.1: a notification is not answered; the guide's promise for every wire): params that fail its schema and
 * what its handler throws go to the server's `onError`, and the answer is `{}`.
 *
 * @param extension The extension (its settings are what `ctx.settings` reads).
 * @param name The message's name.
 * @param message The method or notification.
 * @param sent The params as sent.
 * @param caller The registry, what is known of the caller, who it is (`ctx.auth`, after request middleware), the
 *   request's signal, and whether the message is a notification.
 * @returns The handler's result, a JSON object (`{}` for a notification).
 * @throws {ProtocolError} For a method: a missing scope, params that fail the schema; `TypeError` for a result that
 *   is not an object.
 */
export async function runOnWire(
  extension: Pick<Extension, "advertised">,
  name: string,
  message: Runnable,
  sent: Readonly<Record<string, unknown>>,
  caller: Caller & { readonly notification: boolean },
): Promise<Readonly<Record<string, unknown>>> {
  if (caller.notification) {
    try {
      await run(extension, name, message, sent, caller);
    } catch (error) {
      caller.registry.runtime.onError?.(error);
    }
    return {};
  }
  return await run(extension, name, message, sent, caller);
}

/**
 * What the caller declared, where its wire declares nothing of its own: MCP-lite and gRPC carry no `initialize`, so a
 * request declares its capabilities in its `_meta` under MCP 2026-07-28's key (`io.modelcontextprotocol/
 * clientCapabilities`, SEP-2133's `extensions` in it), as an MCP 2026-07-28 request does; SEP-3415's profile is chosen
 * by it.
 */
function declaring(meta: CallMeta): CallMeta {
  const declared = meta.requestMeta?.[META.clientCapabilities];
  return meta.clientCapabilities === undefined && isObject(declared)
    ? { ...meta, clientCapabilities: declared as Record<string, unknown> }
    : meta;
}

async function run(
  extension: Pick<Extension, "advertised">,
  name: string,
  message: Runnable,
  sent: Readonly<Record<string, unknown>>,
  caller: Caller,
): Promise<Readonly<Record<string, unknown>>> {
  const params = await checkedParams(name, message, sent, caller.auth);
  const { registry } = caller;
  const stream = caller.stream;
  const ctx: ExtensionContext = {
    client: clientViewOf(declaring(caller.meta), {}),
    auth: caller.auth,
    get signal() {
      return caller.signal;
    },
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
    notify: (method, params = {}) => Promise.resolve(stream?.notify(method, params)),
    ...(stream === undefined ? {} : { holdOpen: () => stream.holdOpen(caller.auth) }),
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
