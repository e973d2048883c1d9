/**
 * Running a handler that is not a tool's (a prompt's, a resource read's) with the same request
 * middleware, scope check, context and input round as a tool call.
 *
 * @module
 */
import { budgetsOf } from "../instance/runtime.ts";
import { type CallContext, callerOf, type CallMeta, type SignalSource } from "./call-context.ts";
import { createContext } from "./tool-call-context.ts";
import type { CallSink } from "./call-sink.ts";
import type { Host } from "./host.ts";
import { groupOf, runHandlerInGroup } from "./grouped-middleware.ts";
import { requireScopes } from "../definitions/scopes.ts";
import { InputRound, requiredInput, type RoundScope } from "./input-round.ts";
import { type Call, runMiddleware } from "./middleware.ts";
import type { InputRequiredOutcome } from "./outcome.ts";
import type { Registry } from "../definitions/registry.ts";

/** A handler that is not a tool's (a prompt, a resource read), run in the same context as a tool call. */
export interface HandlerRequest {
  /** The method, as request middleware sees it (`resources/read`, `prompts/get`). */
  readonly method: string;
  /** The request's params, as request middleware sees them. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The name the context carries (`ctx.tool`): the prompt's name, the resource's URI. */
  readonly name: string;
  /** What an input round's state is bound to, besides the caller: e.g. `prompt:greet`. */
  readonly scope: string;
  /** The arguments as sent, which an input round's state is bound to. */
  readonly arguments: unknown;
  /** What is known about the caller. */
  readonly meta: CallMeta;
  /** The cancellation signal, or what holds it. */
  readonly signal: AbortSignal | SignalSource;
  /** Where progress, logs and questions go. */
  readonly sink?: CallSink;
  /** The input round the request carried, on wires that ask that way. */
  readonly round?: { readonly inputResponses: unknown; readonly requestState: unknown };
  /** What came with the request: the authenticated caller (`ctx.auth`) and the platform's values (`ctx.env`). */
  readonly host?: Host;
}

/** What a handler run by {@link runHandler} gave: its value, or the input the request still needs. */
export type HandlerOutcome<T> =
  | { readonly asked: false; readonly value: T }
  | { readonly asked: true; readonly outcome: InputRequiredOutcome };

/**
 * Runs a handler that is not a tool's (a prompt's, a resource read's) with the same request
 * middleware, scope check, context and input round as a tool call: the request middleware runs first,
 * around everything (so a refused caller does not learn whether the prompt or resource exists); then
 * `find` looks the definition up; a caller without its scopes is refused (`permission_denied`, 403
 * `insufficient_scope` on HTTP) before its arguments are looked at; then the echoed state is checked
 * (a tampered, expired or foreign one is `invalid_params`, never a re-prompt); a question the request
 * did not answer ends it with the input it needs, even if the handler caught the signal.
 *
 * @param registry The registry.
 * @param request The handler's method, name, scope, arguments, caller and round.
 * @param find Looks the definition up (throws for an unknown one); its `scopes` are required.
 * @param run Runs the handler with the definition and its context.
 * @returns The handler's value, or the input the request needs.
 * @throws {ProtocolError} What request middleware or `find` threw; `unauthenticated` or
 *   `permission_denied` for a missing scope, `invalid_params` for a bad state; any error of the
 *   handler otherwise.
 */
export function runHandler<D extends { readonly scopes?: readonly string[] }, T>(
  registry: Registry,
  request: HandlerRequest,
  find: () => D,
  run: (definition: D, ctx: CallContext) => T | Promise<T>,
): Promise<HandlerOutcome<T>> {
  const carried = request.round;
  const round = carried === undefined
    ? undefined
    : new InputRound(carried.inputResponses, carried.requestState, request.sink);
  const ctx = createContext(request, round ?? request.sink, registry.runtime.logger, budgetsOf(registry.runtime));
  const chain = registry.runtime.middleware;
  const handled = () => handle(registry, request, ctx, round, find, run);
  if (chain.length === 0) return handled();
  const seen: Call = { method: request.method, name: request.name, params: request.params, ctx };
  return runMiddleware(chain, seen, handled) as Promise<HandlerOutcome<T>>;
}

async function handle<D extends { readonly scopes?: readonly string[] }, T>(
  registry: Registry,
  request: HandlerRequest,
  ctx: CallContext,
  round: InputRound | undefined,
  find: () => D,
  run: (definition: D, ctx: CallContext) => T | Promise<T>,
): Promise<HandlerOutcome<T>> {
  const definition = find();
  const group = groupOf(definition); // grouped from another server: its request middleware wrap it
  if (group !== undefined) {
    const own = run;
    const seen: Call = { method: request.method, name: request.name, params: request.params, ctx };
    run = (d, c) => runHandlerInGroup(group, seen, async () => await own(d, c));
  }
  if (definition.scopes !== undefined) requireScopes(definition.scopes, ctx.auth, scoped(request.scope));
  if (round === undefined) {
    try {
      return { asked: false, value: await run(definition, ctx) };
    } catch (thrown) {
      throw requiredInput(thrown, ctx.meta, round);
    }
  }
  const who: RoundScope = { scope: request.scope, args: request.arguments ?? {}, caller: callerOf(ctx.auth) };
  const opening = round.open(registry.runtime.tokens, who, registry.runtime.reportRefusedToken);
  if (opening !== undefined) await opening;
  let value: T;
  try {
    value = await run(definition, ctx);
  } catch (thrown) {
    const error = requiredInput(thrown, ctx.meta, round) ?? thrown;
    if (!round.pending) throw error;
    return { asked: true, outcome: await round.outcome(registry.runtime.tokens, who) };
  }
  if (round.pending) return { asked: true, outcome: await round.outcome(registry.runtime.tokens, who) };
  return { asked: false, value };
}

/** Names what a handler request is for, as refusals say it: `prompt:greet` → `prompt "greet"`. */
function scoped(scope: string): string {
  const colon = scope.indexOf(":");
  return colon < 0 ? scope : `${scope.slice(0, colon)} "${scope.slice(colon + 1)}"`;
}
