/**
 * The `redeem` system tool's work (MCP-lite spec v0.042 §3.6): verify a promise token, then run the owning tool's
 * continuation, or read the deferred result, on whichever instance the call reached.
 *
 * @module
 */
import { askAll } from "./ask-all.ts";
import { continuationsOf } from "./continuations.ts";
import { resultNotHeld } from "./result-not-held.ts";
import { type AuthInfo, type CallContext, callerOf } from "../core/call/call-context.ts";
import { setConfig } from "../core/call/tool-call-context.ts";
import { resultOf } from "../core/call/output.ts";
import { configFor, hasConfig } from "../core/definitions/config.ts";
import { ProtocolError } from "../errors/error.ts";
import { isUnavailable } from "./guarded-store.ts";
import { ISSUED_BY } from "../core/call/trace-context.ts";
import type { Registry } from "../core/definitions/registry.ts";
import { toolResult } from "../core/results/result.ts";
import { endedAnswer } from "./ended-answer.ts";
import { type DeferredState, PendingPromise } from "../core/call/tool-promise.ts";
import { restartOf } from "./job-restart.ts";
import { PROMISE_KIND, type PromiseState } from "./promise-outcome.ts";
import { requireToolScopes } from "../core/definitions/scopes.ts";
import { TokenError } from "../codec/token-error.ts";
import type { AnyTool } from "../core/definitions/tool.ts";
import type { RedeemArgs } from "../core/long-running/redeem-args.ts";

/**
 * Redeems (or cancels) a promise token. A bad token changes nothing: it is refused before any
 * continuation runs.
 *
 * @param registry The registry, for the owning tool and the server's continuations.
 * @param args The token and whether to cancel.
 * @param ctx The redeem call's context; the continuation receives it.
 * @returns The continuation's value: an answer, or another pending answer.
 * @throws {ProtocolError} `invalid_params` for an invalid, expired or foreign token, a token of a tool
 *   this server does not serve, or deferred work whose result this instance does not hold.
 */
export async function redeemPromise(registry: Registry, args: RedeemArgs, ctx: CallContext): Promise<unknown> {
  const c = continuationsOf(registry.runtime);
  let scope: string;
  let state: PromiseState;
  try {
    const claims = await c.codec.verify(args.promise, { kind: PROMISE_KIND, caller: callerOf(ctx.auth) });
    scope = claims.scope;
    state = claims.state as PromiseState;
    if (state.t !== undefined) ctx.set(ISSUED_BY, state.t); // telemetry links this call to the issuing one
  } catch (error) {
    if (!(error instanceof TokenError)) throw error;
    registry.runtime.reportRefusedToken(error);
    throw new ProtocolError("invalid_params", "Invalid or expired promise token", {
      data: { reason: "invalid_promise" },
      cause: error,
    });
  }
  const owner = continuationOwner(registry, scope, ctx.auth);
  if (owner === undefined) {
    throw new ProtocolError(
      "invalid_params",
      `This promise belongs to tool "${scope}", which this server does not serve`,
      {
        data: { reason: "unknown_promise_tool", tool: scope },
      },
    );
  }
  if ("d" in state) return redeemDeferred(registry, owner, state, args.cancel === true, ctx);
  if (args.cancel === true) {
    await cancelContinuation(registry, owner, state.s, ctx);
    return "cancelled";
  }
  return await continuePromise(registry, owner, state.s, ctx);
}

/**
 * The tool a verified continuation token (a promise token, an MCP task id) was issued by: the one
 * place where a continuation finds its owner, on every wire. A caller that lacks the owner's scopes is
 * refused here, with the refusal its first call would get (403 and the step-up challenge), before
 * anything of the owner runs or is read: holding the token proves who the caller is, not what it may
 * still do (MCP 2025-11-25, Authorization, Scope Challenge Handling).
 *
 * @param registry The registry.
 * @param name The tool the token names.
 * @param auth The caller of this request.
 * @returns The tool, or `undefined` when this server serves no long-running tool of that name.
 * @throws {ProtocolError} `permission_denied` (or `unauthenticated`) when the caller lacks its scopes.
 */
export function continuationOwner(registry: Registry, name: string, auth: AuthInfo | undefined): AnyTool | undefined {
  const owner = registry.get(name);
  if (owner === undefined || owner.longRunning === undefined) return undefined;
  requireToolScopes(owner, auth);
  return owner;
}

/**
 * Runs a tool's continuation (`.redeem()`) on a promise's state, with the tool's configuration.
 *
 * @param registry The registry, for the server's settings.
 * @param owner The tool that made the promise.
 * @param state The promise's state.
 * @param ctx The context the continuation receives.
 * @returns The continuation's result, checked against the owner's output schema, or another pending
 *   answer (tagged with its tool).
 * @throws {ProtocolError} `invalid_params` when the tool has no `.redeem()`; `internal` (masked) for a
 *   result that does not match the owner's output schema.
 */
export async function continuePromise(
  registry: Registry,
  owner: AnyTool,
  state: unknown,
  ctx: CallContext,
): Promise<unknown> {
  if (owner.onRedeem === undefined) {
    throw new ProtocolError("invalid_params", `Tool "${owner.name}" cannot continue this promise`, {
      data: { reason: "unknown_promise_tool", tool: owner.name },
    });
  }
  // The owner's configuration, from the server's settings: a continuation never sees a caller's.
  if (hasConfig(registry, owner)) setConfig(ctx, await configFor(registry, owner, undefined));
  // Awaited only when asynchronous: each await of a plain value costs a turn of the microtask queue.
  let value = owner.onRedeem(state, ctx);
  if (value instanceof Promise) value = await value;
  if (value instanceof PendingPromise) {
    value["~tool"] = owner.name;
    return value;
  }
  const result = resultOf(owner, value, (error) => registry.runtime.reportUnexpected(error, undefined));
  return toolResult(result instanceof Promise ? await result : result);
}

/**
 * Runs a tool's cancellation handler (`.cancel()`), if it has one, on a promise's state.
 *
 * @param registry The registry, for the server's settings.
 * @param owner The tool that made the promise.
 * @param state The promise's state.
 * @param ctx The context the handler receives.
 * @returns When the handler is done.
 */
export async function cancelContinuation(
  registry: Registry,
  owner: AnyTool,
  state: unknown,
  ctx: CallContext,
): Promise<void> {
  if (owner.onCancel === undefined) return;
  if (hasConfig(registry, owner)) setConfig(ctx, await configFor(registry, owner, undefined)); // as continuePromise()
  await owner.onCancel(state, ctx);
}

async function redeemDeferred(
  registry: Registry,
  owner: AnyTool,
  state: DeferredState,
  cancel: boolean,
  ctx: CallContext,
): Promise<unknown> {
  const c = continuationsOf(registry.runtime);
  const id = state.d;
  const ttlMs = owner.longRunning?.ttlMs ?? c.promiseTtlMs;
  if (cancel) {
    const stopped = await c.cancel(id, ttlMs);
    return stopped ? "cancelled" : "not cancelled: the work is no longer running";
  }
  const again = () => {
    const promise = new PendingPromise(
      { state: undefined, retryAfterMs: owner.longRunning?.retryAfterMs },
      undefined,
      state,
    );
    promise["~tool"] = owner.name;
    return promise;
  };
  let entry;
  try {
    entry = await c.read(id, ttlMs, restartOf(registry, owner, state, ctx), state.i);
  } catch (error) {
    // The store is out of reach: the job may still run, or its result wait to be stored. "Not done
    // yet" on the same token keeps the client polling (MCP-lite spec v0.042 §3.6); never a failure.
    if (isUnavailable(error)) return again();
    throw error;
  }
  if (entry === undefined) {
    throw resultNotHeld(
      "The result of this promise is not held by this server instance (or it has expired)",
      "result",
      "redeem",
    );
  }
  switch (entry.status) {
    case "working":
      return again();
    case "input_required": {
      // The work waits for the client: ask its questions on this call (an input round, or a request on
      // the 2025 stream), hand the answers over, and answer "not done yet" while it resumes.
      await askAll(ctx, entry.requests, (answers) => c.answer(id, answers, ttlMs));
      return again();
    }
    default:
      return toolResult(endedAnswer(entry));
  }
}
