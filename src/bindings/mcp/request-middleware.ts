/**
 * Request middleware around every MCP method (`server.use()`), on every carrier (HTTP, batches,
 * stdio): the routed method is wrapped once, where it is looked up, so no method can slip past it.
 *
 * @module
 */
import { type Registry, runRequest, withCaller } from "../../core/mod.ts";
import type { McpMethod } from "./mcp-request.ts";
import { callMetaOf } from "./sink.ts";

/**
 * Declares a method that runs the request middleware itself, through a core runner, because the
 * middleware's context must be the one its handler receives: `tools/call` (`runCall`), `resources/read`
 * and `prompts/get` (`runHandler`), and `tasks/*` (`runRequest`, whose context the task code reads).
 * Routing wraps every other method (`throughMiddleware`), so each request meets the middleware once.
 *
 * @param method The method, which calls `runCall`, `runHandler` or `runRequest` itself.
 * @returns The same method, marked.
 */
export function ownLayer(method: McpMethod): McpMethod {
  return Object.assign(method, { ownsRequestLayer: true as const });
}

/**
 * Wraps a routed method in the request middleware. Without middleware, the method itself (nothing
 * is allocated on the hot path). The caller middleware sets as `ctx.auth` is the one the method
 * answers for (a list filtered by scopes, a subscription).
 *
 * @param registry The registry, with the middleware.
 * @param name The method's name.
 * @param method The method.
 * @returns The method, run inside the middleware.
 */
export function throughMiddleware(registry: Registry, name: string, method: McpMethod): McpMethod {
  if (registry.runtime.middleware.length === 0 || method.ownsRequestLayer) return method;
  return (ctx, request, channel) => {
    const host = request.host;
    const seen = {
      method: name,
      params: request.rpc.params,
      meta: callMetaOf(request),
      signal: channel,
      host,
    };
    return runRequest(registry, seen, (call) => {
      const routed = call.auth === host.auth ? request : { ...request, host: withCaller(host, call.auth) };
      return method(ctx, routed, channel);
    });
  };
}
