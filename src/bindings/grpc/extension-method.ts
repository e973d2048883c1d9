/**
 * `CallMethod` of the `mcplite.MCPLite` service (this SDK's MCP-lite extension E5): a request method an extension
 * adds (SEP-2133), by its name, with its params and result as `Struct`s, answered inside the request middleware as
 * on MCP-lite's JSON-RPC endpoints. A unary call streams nothing: `ctx.notify` sends nothing and `ctx.request`
 * rejects. UNIMPLEMENTED for a method no served extension defines.
 *
 * @module
 */
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { JsonObject } from "@bufbuild/protobuf";
import type { Registry } from "../../core/mod.ts";
import type { MethodRequest } from "../../gen/mcplite/mcplite_pb.ts";
import { extensionMethod } from "../mcplite/extensions.ts";
import { structOf, toJsonObject } from "./envelope.ts";
import { HOST_KEY } from "./host-key.ts";
import { asConnectErrors } from "./status.ts";

/**
 * Answers `CallMethod`: the extension method's result as `result`.
 *
 * @param registry The registry.
 * @param version The server's version.
 * @param request The decoded request.
 * @param context Connect's handler context.
 * @returns The response.
 * @throws {ConnectError} UNIMPLEMENTED for an unknown method; the method's failure as every call's.
 */
export function callMethod(
  registry: Registry,
  version: string,
  request: MethodRequest,
  context: HandlerContext,
): Promise<{ result: JsonObject }> {
  return asConnectErrors(async () => {
    const method = extensionMethod(registry, request.method);
    if (method === undefined) {
      throw new ConnectError(`Method not found: ${request.method} (no extension serves it)`, Code.Unimplemented);
    }
    const rpc = { method: request.method, params: structOf(request.params) ?? {} };
    const caller = {
      meta: { wire: "grpc", headers: context.requestHeader } as const,
      signal: context.signal,
      host: context.values.get(HOST_KEY),
    };
    return { result: toJsonObject(await method.answer(registry, rpc, caller, version) as object) };
  }, (error) => registry.runtime.onError?.(error));
}
