/**
 * Running a request that is neither a tool call nor a handler's (a list, `server/discover`,
 * `tasks/get`…) inside the request middleware.
 *
 * @module
 */
import { type CallContext, type CallMeta, type SignalSource } from "./call-context.ts";
import { createContext } from "./tool-call-context.ts";
import type { Host } from "./host.ts";
import { type Call, nameOf, runMiddleware } from "./middleware.ts";
import type { Registry } from "../definitions/registry.ts";

/** A request that is neither a tool call nor a handler's (a list, `tasks/get`, `initialize`…). */
export interface MethodRequest {
  /** The method (e.g. `tasks/get`), as request middleware sees it. */
  readonly method: string;
  /** The request's params, as request middleware sees them. */
  readonly params: Readonly<Record<string, unknown>>;
  /** What is known about the caller. */
  readonly meta: CallMeta;
  /** The cancellation signal, or what holds it. */
  readonly signal: AbortSignal | SignalSource;
  /** What came with the request: the authenticated caller (`ctx.auth`) and the platform's values (`ctx.env`). */
  readonly host?: Host;
}

/**
 * Runs a request that is not a tool call (a list, `server/discover`, `tasks/get`…) inside the request
 * middleware, so that authentication, rate limits and telemetry see every method. The operation gets
 * the context middleware saw (with the `ctx.auth` it may have set).
 *
 * @param registry The registry.
 * @param request The method, its params and the caller.
 * @param operation The method, given the context middleware saw.
 * @returns The operation's value, or what a middleware answered instead.
 * @throws {ProtocolError} What middleware or the operation threw.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Definitions } from "../definitions/registry.ts";
 * import { Runtime } from "../instance/runtime.ts";
 * import { runRequest } from "./run-request.ts";
 *
 * const registry = new Definitions(new Runtime());
 * const seen: string[] = [];
 * registry.runtime.use((call, next) => {
 *   seen.push(call.method);
 *   return next();
 * });
 * const meta = { wire: "in-process" as const, headers: new Headers() };
 * const value = await runRequest(registry, { method: "tools/list", params: {}, meta, signal: AbortSignal.abort() }, () => 42);
 * assert.equal(value, 42);
 * assert.deepEqual(seen, ["tools/list"]);
 * ```
 */
export function runRequest<T>(
  registry: Registry,
  request: MethodRequest,
  operation: (ctx: CallContext) => T | Promise<T>,
): Promise<T> {
  const params = request.params;
  const ctx = createContext({ ...request, name: nameOf(params) ?? request.method }, undefined, registry.runtime.logger);
  const chain = registry.runtime.middleware;
  if (chain.length === 0) {
    try {
      return Promise.resolve(operation(ctx));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  const seen: Call = { method: request.method, name: nameOf(params), params, ctx };
  return runMiddleware(chain, seen, async () => await operation(ctx)) as Promise<T>;
}
