/**
 * At-least-once delivery of a `.longRunning({ retry })` tool's declared work without a queue: what an instance that
 * finds the job's lease lapsed needs to deliver it again itself (`lapsed-jobs.ts`, an in-process queue). Its input
 * travels in the promise token (signed, sealed by default), so any instance can do it without state of its own; the
 * caller is the one the token is bound to, the same principal as the request reading it. Only the work runs again (its
 * journaled steps are not), kept alive by the reading request's host (`waitUntil`, on Workers).
 *
 * @module
 */
import { type CallContext } from "../core/call/call-context.ts";
import { waitUntilOf } from "../core/call/tool-call-context.ts";
import type { Redelivery } from "./lapsed-jobs.ts";
import type { Registry } from "../core/definitions/registry.ts";
import type { AnyTool } from "../core/definitions/tool.ts";
import { jobStart } from "./job-start.ts";
import { jobCall } from "./job-call.ts";

/**
 * Gives what a read needs to deliver a stopped job of `owner` again, when the tool asks for retries and the token
 * carried the call's arguments.
 *
 * @param registry The registry, for the server's middleware, settings and error reporter.
 * @param owner The tool that deferred the work.
 * @param state The token's state: `a` holds the arguments of a call whose work may be retried, `t` its trace.
 * @param reader The context of the request reading the job (`redeem`, `tasks/get`): its metadata,
 *   `ctx.env` and caller (the token's own) become the work's, its host's `waitUntil` the work's.
 * @returns The redelivery, or `undefined` when the job is not retried.
 */
export function restartOf(
  registry: Registry,
  owner: AnyTool,
  state: { readonly a?: unknown; readonly t?: string },
  reader: CallContext,
): Redelivery | undefined {
  const retry = owner.longRunning?.retry;
  if (retry === undefined || owner.work === undefined || !("a" in state)) return undefined;
  // Declared work starts again with its input, as the reading request's caller (the token's own).
  const origin = { input: state.a ?? {}, auth: reader.auth, meta: reader.meta, env: reader.env };
  return {
    retry,
    start: (start) => {
      // Its failure's line names the tool, the reading request, the call's trace and the job's start, as a worker's.
      const call = jobCall(owner.name, origin.input, origin.meta, start, state.t);
      const { work, options } = jobStart(registry, owner, origin, { ...start, fresh: false, queued: false }, call);
      return { work, options: { ...options, waitUntil: waitUntilOf(reader) } };
    },
  };
}
