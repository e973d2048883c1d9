/**
 * `CallMethod` of the `mcplite.MCPLite` service (this SDK's MCP-lite extension E5): a request method an extension
 * adds (SEP-2133), by its name, with its params and result as `Struct`s, answered inside the request middleware as
 * on MCP-lite's JSON-RPC endpoints. A unary call streams nothing: `ctx.notify` sends nothing and `ctx.request`
 * rejects. UNIMPLEMENTED for a method no served extension defines; a notification is run and answered `{}`, its
 * failure going to `onError`. A method's scopes are required of the caller, refused as a tool's call is.
 *
 * @module
 */
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { JsonObject } from "@bufbuild/protobuf";
import { type Registry, runRequest } from "../../core/mod.ts";
import { runOnWire } from "../../extension/run-on-wire.ts";
import { isObject } from "../../internal/is-object.ts";
import type { MethodRequest } from "../../gen/mcplite/mcplite_pb.ts";
import { extensionMessage } from "../extension-feature.ts";
import { structOf, toJsonObject } from "./envelope.ts";
import { HOST_KEY } from "./host-key.ts";
import { asConnectErrors } from "./status.ts";

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
    const name = request.method;
    const found = extensionMessage(registry, name);
    if (found === undefined) {
      throw new ConnectError(`Method not found: ${name} (no extension serves it)`, Code.Unimplemented);
    }
    const params = structOf(request.params) ?? {};
    // The params' `_meta` is the request's, as on MCP-lite: where it declares the client's capabilities (run-on-wire.ts).
    const sent = params._meta;
    const meta = {
      wire: "grpc",
      headers: context.requestHeader,
      ...(isObject(sent) ? { requestMeta: sent } : {}),
    } as const;
    const signal = context.signal;
    const call = { method: name, params, meta, signal, host: context.values.get(HOST_KEY) };
    const result = await runRequest(
      registry,
      call,
      (ctx) => {
        const notification = found.extension.notifications.has(name);
        return runOnWire(found.extension, name, found.message, params, {
          registry,
          meta,
          auth: ctx.auth,
          signal,
          notification,
        });
      },
    );
    return { result: toJsonObject(result) };
  }, (error) => registry.runtime.onError?.(error));
}
