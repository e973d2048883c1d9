/**
 * `CallMethod` of the `mcplite.MCPLite` service (this SDK's MCP-lite extension E5): a request method an extension
 * adds (SEP-2133), by its name, with its params and result as `Struct`s, answered inside the request middleware as
 * on MCP-lite's JSON-RPC endpoints. A unary call streams nothing: `ctx.notify` sends nothing and `ctx.request`
 * rejects (`CallMethodStream` streams: ./extension-method-stream.ts). UNIMPLEMENTED for a method no served extension
 * defines; a notification is run and answered `{}`, its failure going to `onError`. A method's scopes are required.
 *
 * @module
 */
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { JsonObject } from "@bufbuild/protobuf";
import { type CallMeta, type Registry, runRequest } from "../../core/mod.ts";
import { runOnWire, type WireStream } from "../../extension/run-on-wire.ts";
import { isObject } from "../../internal/is-object.ts";
import type { MethodRequest } from "../../gen/mcplite/mcplite_pb.ts";
import type { Host } from "../../server/mod.ts";
import { extensionMessage } from "../extension-feature.ts";
import { structOf, toJsonObject } from "./envelope.ts";
import { HOST_KEY } from "./host-key.ts";
import { asConnectErrors } from "./status.ts";

/** A `MethodRequest` decoded: the method, what serves it, its params, what is known of the caller, and its host. */
export interface MethodCall {
  readonly name: string;
  readonly found: NonNullable<ReturnType<typeof extensionMessage>>;
  readonly params: Readonly<Record<string, unknown>>;
  readonly meta: CallMeta;
  readonly host: Host;
}

/**
 * Answers `CallMethod`: the extension method's result as `result`.
 *
 * @param registry The registry.
 * @param request The decoded request.
 * @param context Connect's handler context.
 * @returns The response.
 * @throws {ConnectError} UNIMPLEMENTED for an unknown method; the method's failure as every call's.
 */
export function callMethod(
  registry: Registry,
  request: MethodRequest,
  context: HandlerContext,
): Promise<{ result: JsonObject }> {
  return asConnectErrors(async () => {
    const call = methodCallOf(registry, request, context);
    return { result: toJsonObject(await runMethod(registry, call, context)) };
  }, (error) => registry.runtime.onError?.(error));
}

/**
 * Decodes a `MethodRequest`.
 *
 * @param registry The registry.
 * @param request The decoded request.
 * @param context Connect's handler context.
 * @returns The call.
 * @throws {ConnectError} UNIMPLEMENTED for a method no served extension defines.
 */
export function methodCallOf(registry: Registry, request: MethodRequest, context: HandlerContext): MethodCall {
  const name = request.method;
  const found = extensionMessage(registry, name);
  if (found === undefined) {
    throw new ConnectError(`Method not found: ${name} (no extension serves it)`, Code.Unimplemented);
  }
  const params = structOf(request.params) ?? {};
  // The params' `_meta` is the request's, as on MCP-lite: where it declares the client's capabilities (run-on-wire.ts).
  const sent = params._meta;
  const meta: CallMeta = {
    wire: "grpc",
    headers: context.requestHeader,
    ...(isObject(sent) ? { requestMeta: sent } : {}),
  };
  return { name, found, params, meta, host: context.values.get(HOST_KEY) };
}

/**
 * Runs a method inside the request middleware.
 *
 * @param registry The registry.
 * @param call The call.
 * @param source The request's signal (read afresh: a held stream's aborts on the server's drain too).
 * @param stream Where its notifications go, on a streaming call.
 * @returns The method's result.
 */
export function runMethod(
  registry: Registry,
  call: MethodCall,
  source: { readonly signal: AbortSignal },
  stream?: WireStream,
): Promise<Readonly<Record<string, unknown>>> {
  const { name, found, params, meta } = call;
  const request = { method: name, params, meta, signal: source, host: call.host };
  return runRequest(registry, request, (ctx) => {
    const notification = found.extension.notifications.has(name);
    return runOnWire(found.extension, name, found.message, params, {
      registry,
      meta,
      auth: ctx.auth,
      get signal() {
        return source.signal;
      },
      notification,
      ...(stream === undefined ? {} : { stream }),
    });
  });
}
