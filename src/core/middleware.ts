/**
 * Middleware: what runs around every tool call on every wire. Each one sees the decoded call and may
 * short-circuit, by returning an outcome or throwing a `ProtocolError`, instead of calling `next`.
 *
 * @module
 */
import type { CallContext } from "./call-context.ts";
import type { CallOutcome } from "./outcome.ts";

/** A decoded tool call, as middleware sees it. */
export interface ToolCall {
  /** The tool name (for a non-tool operation run inside the chain, such as MCP's `tasks/get`, the method). */
  readonly name: string;
  /** The arguments as sent, before validation; middleware may replace them. */
  arguments: unknown;
  /** The context the handler will receive: middleware reads the caller there and sets `ctx.auth` or values. */
  readonly ctx: CallContext;
}

/**
 * A Koa-style middleware. `next()` runs the rest of the chain and the tool, and resolves with the
 * call's outcome once any stream has been drained.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer, ErrorCode, type Middleware, ProtocolError } from "../../mod.ts";
 * const requireUser: Middleware = async (call, next) => {
 *   if (call.ctx.meta.headers.get("x-user") === null) throw new ProtocolError(ErrorCode.Unauthenticated, "who are you?");
 *   return await next();
 * };
 * const server = createServer({ name: "demo", version: "1.0.0" }).use(requireUser);
 * assert.equal(server.name, "demo");
 * ```
 */
export type Middleware = (call: ToolCall, next: () => Promise<CallOutcome>) => Promise<CallOutcome>;

/**
 * Runs a call through the middleware chain, then through `last`.
 *
 * @param chain The middleware, outermost first.
 * @param call The call.
 * @param last The innermost step: the tool.
 * @returns The outcome.
 */
export function runMiddleware(
  chain: readonly Middleware[],
  call: ToolCall,
  last: (call: ToolCall) => Promise<CallOutcome>,
): Promise<CallOutcome> {
  let index = -1;
  const step = (i: number): Promise<CallOutcome> => {
    if (i <= index) return Promise.reject(new Error("next() called more than once"));
    index = i;
    if (i === chain.length) return last(call);
    try {
      return chain[i](call, () => step(i + 1));
    } catch (error) {
      return Promise.reject(error); // a middleware that throws before it returns a promise
    }
  };
  return step(0);
}
