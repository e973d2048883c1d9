/**
 * At-least-once delivery of a `.longRunning({ retry })` tool's deferred work: how an instance that
 * finds the job's instance stopped runs the tool's handler again for its work. The call's arguments
 * travel in the promise token (signed, sealed by default), so any instance can do it without state of
 * its own; the caller is the one the token is bound to, the same principal as the request reading it.
 * The run again is a call of the tool as the first was: inside the request and tool middleware, its
 * work kept alive by the reading request's host (`waitUntil`, on Workers).
 *
 * @module
 */
import { type CallContext } from "./call-context.ts";
import { createContext, setConfig, waitUntilOf } from "./tool-call-context.ts";
import type { CallSink } from "./call-sink.ts";
import { configFor } from "./config.ts";
import type { Restart } from "./continuations.ts";
import { ProtocolError } from "../errors/error.ts";
import { failedCall } from "./failed-call.ts";
import { groupOf, runToolInGroup } from "./grouped-middleware.ts";
import type { ToolCall } from "./middleware.ts";
import { type CallOutcome, finalOutcome } from "./outcome.ts";
import { resultOf } from "./output.ts";
import type { Registry } from "./registry.ts";
import type { ToolResult } from "./result.ts";
import type { AnyTool, ToolHandler } from "./tool.ts";
import { PendingPromise } from "./tool-promise.ts";
import { DurableSleep } from "../jobs/durable-sleep.ts";

/**
 * Gives what {@link Continuations.read} needs to start a stopped job of `owner` again, when the tool
 * asks for retries and the token carried the call's arguments.
 *
 * @param registry The registry, for the server's middleware, settings and error reporter.
 * @param owner The tool that deferred the work.
 * @param state The token's state: `a` holds the arguments of a call whose work may be retried.
 * @param reader The context of the request reading the job (`redeem`, `tasks/get`): its metadata,
 *   `ctx.env` and caller (the token's own) become the handler's, its host's `waitUntil` the work's.
 * @returns The restart, or `undefined` when the job is not retried.
 */
export function restartOf(
  registry: Registry,
  owner: AnyTool,
  state: { readonly a?: unknown },
  reader: CallContext,
): Restart | undefined {
  const retry = owner.longRunning?.retry;
  if (retry === undefined || !("a" in state)) return undefined;
  const report = (error: unknown) => registry.runtime.onError?.(error);
  return {
    attempts: retry.attempts,
    backoffMs: retry.backoffMs ?? 0,
    work: (sink, signal) => rerun(registry, owner, state.a, reader, sink, signal),
    options: {
      onError: report,
      onFailure: (error) => registry.runtime.reportUnexpected(error), // masked as a call's failure
      shape: jobResultOf,
      waitUntil: waitUntilOf(reader),
      timeoutMs: owner.longRunning?.timeoutMs,
    },
  };
}

/**
 * Calls the tool again, as the original call did (a retry here, or a queued job on a worker): inside the server's request and tool middleware
 * (and those of the servers it was grouped from), which see a `tools/call` of the tool with the
 * arguments it was first called with; the handler's deferred work runs inside them too, so `next()`
 * resolves with the job's outcome. Its questions go to the job.
 */
export function rerun(
  registry: Registry,
  owner: AnyTool,
  args: unknown,
  reader: CallContext,
  sink: CallSink,
  signal: AbortSignal,
): Promise<CallOutcome> {
  const host = { auth: reader.auth, env: reader.env, waitUntil: waitUntilOf(reader) };
  const ctx = createContext({ name: owner.name, signal, meta: reader.meta, host }, sink, registry.runtime.logger);
  const call: ToolCall = { name: owner.name, arguments: args ?? {}, ctx };
  const layers = [registry.runtime, ...(groupOf(owner) ?? [])];
  return runToolInGroup(layers, call, (c) => runAgain(registry, owner, c, signal));
}

/** The tool's handler run again, then the work it defers: the job's outcome. */
async function runAgain(registry: Registry, owner: AnyTool, call: ToolCall, signal: AbortSignal): Promise<CallOutcome> {
  let checked = owner.input.validate(call.arguments ?? {});
  if (checked instanceof Promise) checked = await checked;
  if (!checked.ok) throw new ProtocolError("invalid_arguments", `Invalid arguments for tool ${owner.name}`);
  const ctx = call.ctx;
  if (owner.config !== undefined || registry.runtime.config !== undefined) {
    setConfig(ctx, await configFor(registry, owner, undefined)); // the server's settings, as for continuations
  }
  const report = (error: unknown) => registry.runtime.reportUnexpected(error, call);
  try {
    const value = owner.mode === "handle"
      ? await (owner.run as ToolHandler<unknown, unknown>)(checked.value, ctx)
      : undefined;
    const work = value instanceof PendingPromise ? value["~work"] : undefined;
    if (work === undefined) throw new TypeError(`tool "${owner.name}" did not answer with ctx.defer() when run again`);
    return finalOutcome(await resultOf(owner, await work(signal), report)); // the owner's output schema
  } catch (error) {
    if (error instanceof DurableSleep) throw error; // a queued job's sleep: no outcome, the queue runs it again
    return failedCall(call, error, registry.runtime); // protocol errors fail the job (rethrown)
  }
}

/** The job's result from the outcome of its run again (or what a middleware answered instead). */
export function jobResultOf(outcome: unknown): ToolResult {
  const { kind } = outcome as CallOutcome;
  if (kind === "answer" || kind === "failure") return (outcome as { result: ToolResult }).result;
  throw new TypeError(
    `middleware answered a retried job with a "${kind}" outcome; only an answer or a failure ends it`,
  );
}
