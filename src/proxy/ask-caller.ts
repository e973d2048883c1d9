/**
 * What the remote asks while a proxied call runs (elicitation, sampling: MCP 2025-11-25, Client
 * Features) is asked of our caller, where its wire lets it: on the call's stream of an MCP 2025 session,
 * or as an input round (MCP 2026-07-28 multi round-trip requests, MCP-lite `elicitation`), after which the
 * call runs again and the remote, asking again, gets the caller's answer. Keys count the questions of one
 * run, so a remote that asks in the same order finds its answers.
 *
 * @module
 */
import type { CallContext } from "../core/call-context.ts";
import type { InputHandlers } from "../client/input.ts";

/**
 * The input handlers of one call that ask its caller.
 *
 * @param ctx The call's context.
 * @returns `onElicit` and `onSample` for the client's call.
 */
export function askCaller(ctx: CallContext): Pick<InputHandlers, "onElicit" | "onSample"> {
  let asked = 0;
  return {
    onElicit: async (request) =>
      await ctx.requestInput(`remote-input-${++asked}`, {
        method: "elicitation/create",
        params: { ...request },
      }) as never,
    onSample: async (request) =>
      await ctx.requestInput(`remote-input-${++asked}`, {
        method: "sampling/createMessage",
        params: { ...request },
      }) as never,
  };
}

/** What the proxy's client answers outside a call, declaring the capabilities a call's caller may answer. */
export const DECLINING: Pick<InputHandlers, "onElicit" | "onSample"> = {
  onElicit: () => ({ action: "decline" }),
  onSample: () => {
    throw new Error("sampling is answered by the caller of a proxied call only");
  },
};
