/**
 * The decoded call that middleware sees, and the composition of the chain.
 *
 * @module
 */
import type { CallContext } from "./call-context.ts";
import type { InputRound } from "./input-round.ts";
import type { Outcome } from "./outcome.ts";
import type { Middleware } from "./registry.ts";

/** A decoded tool call, as middleware and the dispatcher see it. */
export interface ToolCall {
  /** The tool name. */
  readonly name: string;
  /** The raw arguments, before validation; middleware may replace them. */
  arguments: unknown;
  /** The call context the handler will receive. */
  readonly ctx: CallContext;
  /** The input round of an MRTR-style wire (MCP-lite, MCP 2026, in-process): answers and signed state. */
  readonly round?: InputRound;
}

/**
 * Runs a call through the middleware chain, then through `last`.
 *
 * @param chain The middleware, outermost first.
 * @param call The call.
 * @param last The innermost step (the dispatcher).
 * @returns The outcome.
 */
export function runMiddleware(
  chain: readonly Middleware[],
  call: ToolCall,
  last: (call: ToolCall) => Promise<Outcome>,
): Promise<Outcome> {
  let index = -1;
  const step = (i: number): Promise<Outcome> => {
    if (i <= index) return Promise.reject(new Error("next() called more than once"));
    index = i;
    if (i === chain.length) return last(call);
    return chain[i](call, () => step(i + 1));
  };
  return step(0);
}
