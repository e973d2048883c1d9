/**
 * At-least-once delivery of a `.longRunning({ retry })` tool's deferred work: how an instance that
 * finds the job's instance stopped runs the tool's handler again for its work. The call's arguments
 * travel in the promise token (signed, sealed by default), so any instance can do it without state of
 * its own; the caller is the one the token is bound to, the same principal as the request reading it.
 *
 * @module
 */
import { type CallContext, createContext } from "./call-context.ts";
import type { CallSink } from "./call-sink.ts";
import { configFor } from "./config.ts";
import type { Restart } from "./continuations.ts";
import { ErrorCode, ProtocolError } from "./error.ts";
import { resultOf } from "./output.ts";
import type { Registry } from "./registry.ts";
import type { AnyTool, ToolHandler } from "./tool.ts";
import { type DeferredWork, ToolPromise } from "./tool-promise.ts";

/**
 * Gives what {@link Continuations.read} needs to start a stopped job of `owner` again, when the tool
 * asks for retries and the token carried the call's arguments.
 *
 * @param registry The registry, for the server's settings and error reporter.
 * @param owner The tool that deferred the work.
 * @param state The token's state: `a` holds the arguments of a call whose work may be retried.
 * @param reader The context of the request reading the job (`redeem`, `tasks/get`): its metadata,
 *   `ctx.env` and caller (the token's own) become the handler's.
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
    options: { onError: report, shape: (value) => resultOf(owner, value, report) },
  };
}

/**
 * Runs the tool's handler again, as the original call did but with no request or tool middleware (no
 * request came), and takes the work it defers. Its questions go to the job.
 */
async function rerun(
  registry: Registry,
  owner: AnyTool,
  args: unknown,
  reader: CallContext,
  sink: CallSink,
  signal: AbortSignal,
): Promise<DeferredWork> {
  const host = { auth: reader.auth, env: reader.env, waitUntil: undefined };
  const ctx = createContext({ name: owner.name, signal, meta: reader.meta, host }, sink);
  let checked = owner.input.validate(args ?? {});
  if (checked instanceof Promise) checked = await checked;
  if (!checked.ok) throw new ProtocolError(ErrorCode.InvalidArguments, `Invalid arguments for tool ${owner.name}`);
  if (owner.config !== undefined || registry.runtime.config !== undefined) {
    ctx.config = await configFor(registry, owner, undefined); // the server's settings, as for continuations
  }
  const value = owner.mode === "handle"
    ? await (owner.run as ToolHandler<unknown, unknown>)(checked.value, ctx)
    : undefined;
  const work = value instanceof ToolPromise ? value["~work"] : undefined;
  if (work === undefined) throw new TypeError(`tool "${owner.name}" did not answer with ctx.defer() when run again`);
  return work;
}
