/**
 * What the remote asks while a proxied call runs (elicitation, sampling, roots: MCP 2025-11-25, Client Features)
 * is asked of our caller, on an MCP 2025 session's stream or as an input round (MCP 2026-07-28, MCP-lite), after
 * which the call runs again and the remote, asking in the same order, finds the answers. The proxy declares all
 * it relays; a 2026-07-28 remote hears per call what the caller declared, a 2025 one gets the caller's refusal.
 *
 * @module
 */
import type { CallContext } from "../core/call/call-context.ts";
import type { InputHandlers } from "../client/input.ts";
import { isObject } from "../internal/is-object.ts";

/** A call's own input handlers and the capabilities they answer for (`CallOptions`). */
type CallerInput = Pick<InputHandlers, "onElicit" | "onSample" | "onRoots"> & {
  readonly capabilities: Record<string, unknown>;
};

/**
 * The input handlers of one call that ask its caller, and what the caller can answer of what the proxy relays.
 *
 * @param ctx The call's context.
 * @returns `onElicit`, `onSample`, `onRoots` and `capabilities` for the client's call.
 */
export function askCaller(ctx: CallContext): CallerInput {
  let asked = 0;
  const capabilities = callerCapabilities(ctx);
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
    // Roots only of a caller that declared them: a remote asks for them on its own account (server-everything at
    // every session's start), and a caller that never said it has roots must not see its call fail for that.
    onRoots: capabilities.roots === undefined
      ? undefined
      : async () => await ctx.requestInput(`remote-input-${++asked}`, { method: "roots/list", params: {} }) as never,
    capabilities,
  };
}

/**
 * What the caller declared of what the proxy relays: its elicitation and sampling as declared (each request is
 * passed on verbatim), its roots without `listChanged` (its notifications do not reach the remote). A caller on
 * a wire that declares none (MCP-lite, gRPC, in process) is taken at what its call can be asked, roots aside.
 */
function callerCapabilities(ctx: CallContext): Record<string, unknown> {
  const client = ctx.client, declared = client.capabilities;
  // Each input capability in place of the proxy's own: one the caller lacks is not declared (undefined).
  const relayed: Record<string, unknown> = { elicitation: undefined, sampling: undefined, roots: undefined };
  if (declared === undefined) {
    // A wire that declares nothing (MCP-lite, gRPC, in process): what a tool's call may ask, not roots.
    for (const [capability, relay] of Object.entries(RELAYED)) {
      if (capability !== "roots" && client.supports(capability)) relayed[capability] = relay;
    }
    return relayed;
  }
  if (isObject(declared.elicitation)) relayed.elicitation = declared.elicitation;
  if (isObject(declared.sampling)) relayed.sampling = declared.sampling;
  if (isObject(declared.roots)) relayed.roots = {};
  return relayed;
}

/** What the proxy relays to a call's caller, as client capabilities. */
const RELAYED: Readonly<Record<string, Record<string, unknown>>> = {
  elicitation: { form: {}, url: {} },
  sampling: { tools: {} },
  roots: {},
};

/**
 * What the proxy's client answers outside a call, declaring the capabilities a call's caller may answer: both
 * elicitation modes, sampling with tools, and roots. Outside a call there is no caller to ask: an elicitation is
 * declined, sampling and roots refused (a remote that keeps the roots it was answered would keep none).
 */
export const DECLINING: Pick<
  InputHandlers,
  "onElicit" | "onSample" | "onRoots" | "elicitationModes" | "samplingTools"
> = {
  onElicit: () => ({ action: "decline" }),
  elicitationModes: ["form", "url"],
  onSample: () => {
    throw new Error("sampling is answered by the caller of a proxied call only");
  },
  samplingTools: true,
  onRoots: () => {
    throw new Error("roots are answered by the caller of a proxied call only");
  },
};
