/**
 * Turns a handler's {@link ToolPromise} into a `promise` outcome: starts deferred work, signs the
 * token (bound to the caller when one is authenticated).
 *
 * @module
 */
import { continuationsOf, newJobId } from "./continuations.ts";
import { callerOf } from "../core/call/call-context.ts";
import { budgetCallerOf } from "../core/call/tool-call-context.ts";
import type { ToolCall } from "../core/call/middleware.ts";
import type { PromiseOutcome } from "../core/call/outcome.ts";
import { budgetsOf } from "../core/instance/runtime.ts";
import type { Registry } from "../core/definitions/registry.ts";
import type { DeferredState, DeferredWork, PendingPromise } from "../core/call/tool-promise.ts";
import type { AnyTool } from "../core/definitions/tool.ts";
import { TRACE_PARENT } from "../core/call/trace-context.ts";
import { enqueueJob } from "./queued-job.ts";
import { jobStart } from "./job-start.ts";

/** The token kind of promise tokens. */
export const PROMISE_KIND = "promise";

/**
 * The state a promise token carries: a continuation's state, or that of deferred work (its entry, and
 * the call's arguments when its tool retries); and, when telemetry middleware traced the issuing call,
 * its `traceparent` (`t`), so that the redeem's or task poll's span links to it (signed with the rest).
 */
export type PromiseState = ({ readonly s: unknown } | DeferredState) & { readonly t?: string };

/**
 * Issues the token of a pending answer.
 *
 * @param registry The registry, for the owning tool and the server's continuations.
 * @param call The call that answered with the promise.
 * @param tool The tool that was called.
 * @param promise The pending answer.
 * @param waitUntil Keeps deferred work alive past the response, where the platform needs it.
 * @returns The outcome.
 * @throws {TypeError} When the tool cannot redeem it (no `.redeem()` for `ctx.promise()`, not
 *   `.longRunning()` for `ctx.defer()`), or a `RangeError` when the state is too large for a token.
 */
export async function promiseOutcome(
  registry: Registry,
  call: ToolCall,
  tool: AnyTool,
  promise: PendingPromise,
  waitUntil?: (work: Promise<unknown>) => void,
): Promise<PromiseOutcome> {
  const owner = promise["~tool"] === undefined ? tool : registry.get(promise["~tool"]);
  if (owner === undefined) throw new TypeError(`no tool "${promise["~tool"]}" to own this promise`);
  const c = continuationsOf(registry.runtime);
  const ttlMs = promise.ttlMs ?? owner.longRunning?.ttlMs ?? c.promiseTtlMs;
  const work = promise["~work"];
  const entry = promise["~entry"];
  const declared = promise["~input"];
  // What cannot run: refused by the types where they can tell (tests/jobs/long-running-combinations.test-d.ts).
  const refused = work === undefined && entry === undefined && declared === undefined && owner.onRedeem === undefined
    ? " answered with ctx.promise() but has no .redeem() handler to continue it"
    : work !== undefined && owner.longRunning === undefined
    ? " called ctx.defer(): declare it .longRunning() so the server lists redeem"
    : declared !== undefined && (owner.work === undefined || owner !== tool)
    ? " called ctx.defer(input) but declares no work with .defer()"
    : owner.longRunning?.endEvent && !c.hearsEnds && (work ?? declared) // no events served: nobody hears of its end
    ? `: its endEvent "${owner.longRunning.endEvent.name}" is not served: add it with server.event()`
    : undefined;
  if (refused !== undefined) throw new TypeError(`tool "${owner.name}"${refused}`);
  const input = declared?.work === undefined ? call.arguments ?? {} : declared.work;
  const traceparent = call.ctx.get(TRACE_PARENT);
  let continued: PromiseState;
  let started: string | undefined; // the job this call started (or queued): a stream may follow it
  // The job's id; `e.` marks one whose end raises its tool's end event (`task-ends.ts` sees its end by it).
  const id = (owner.longRunning?.endEvent ? "e." : "") + newJobId();
  if (declared !== undefined && c.queue !== undefined) {
    // Queued: a worker runs the declared work with the input (queued-job.ts); the handler ran here, once.
    continued = { d: started = await enqueueJob(c, { owner, args: input, ctx: call.ctx }, ttlMs, id) };
  } else if (work !== undefined || declared !== undefined) {
    // The job's first start, here: the declared work with the input, or the inline work (`ctx.defer(fn)`), its sugar
    // in process (with a queue too: its closure cannot travel), whose handler's context asks through the job (`~bind`).
    const { auth, meta, env } = call.ctx;
    const origin = { input, auth, meta, env, traceparent, work };
    const start = { id, attempt: 1, expiresAt: c.codec.now() + ttlMs, fresh: true, queued: false };
    const first = jobStart(registry, owner, origin, start, call, promise["~bind"]);
    const d = started = await startCounted(
      registry,
      call,
      first.work,
      (counted) => c.start(counted, ttlMs, { ...first.options, waitUntil, id }),
    );
    // Declared work that may start again needs its input on any instance: it travels in the token. Inline work on a
    // server with a queue is marked in it: a read watches its lease, as the queue holds no such job.
    continued = declared !== undefined && owner.longRunning?.retry !== undefined
      ? { d, a: input }
      : work !== undefined && c.queue !== undefined
      ? { d, i: 1 }
      : { d };
  } else continued = entry ?? { s: promise.state };
  const state = traceparent === undefined ? continued : { ...continued, t: traceparent };
  const issuedAt = c.codec.now();
  const caller = callerOf(call.ctx.auth);
  let token: string;
  try {
    token = await c.codec.sign({
      kind: PROMISE_KIND,
      scope: owner.name,
      state,
      ttlMs,
      caller,
    });
  } catch (error) {
    // Arguments too large for a token (`tokens.maxBytes`): nobody could redeem the job, so stop it.
    if (started !== undefined) await c.cancel(started, ttlMs).catch(() => {});
    throw error;
  }
  const outcome: { -readonly [K in keyof PromiseOutcome]: PromiseOutcome[K] } = {
    kind: "promise",
    token,
    retryAfterMs: promise.retryAfterMs ?? owner.longRunning?.retryAfterMs ?? c.retryAfterMs,
    estimatedCompletion: promise.estimatedCompletion,
    expiresAt: new Date(issuedAt + ttlMs).toISOString(),
    caller,
  };
  if (started !== undefined) {
    outcome.entry = started;
    await c.announce(outcome, token, call); // the caller holds the token, unless the call becomes a task
  }
  return outcome;
}

/**
 * Starts deferred work within the server's `jobs` budget (`limits.jobs`, and the caller's share of it):
 * past it the call fails with `rate_limited` and nothing starts; the slot is given back when the work
 * settles, or its job ends first (timed out, cancelled: its signal aborts), or it does not start.
 */
async function startCounted(
  registry: Registry,
  call: ToolCall,
  work: DeferredWork,
  start: (work: DeferredWork) => Promise<string>,
): Promise<string> {
  const budgets = budgetsOf(registry.runtime);
  const caller = budgetCallerOf(call.ctx);
  const refusal = budgets.take("jobs", 1, caller);
  if (refusal !== undefined) throw refusal;
  let held = true;
  const giveBack = () => {
    if (held) budgets.give("jobs", 1, caller);
    held = false;
  };
  try {
    return await start(async (signal) => {
      signal.addEventListener("abort", giveBack, { once: true }); // work that ignores its signal holds no slot
      try {
        return await work(signal);
      } finally {
        giveBack();
      }
    });
  } catch (error) {
    giveBack();
    throw error;
  }
}
