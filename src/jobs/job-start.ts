/**
 * One start of a tool's job, however it was delivered: its first, in the process that took the call (inline work,
 * `ctx.defer(fn)`, included: the sugar of declared work that never meets a queue); a worker's, from the queue; or,
 * with a shared store and no queue, that of an instance whose claim on it won once its lease lapsed (an in-process
 * queue, `lapsed-jobs.ts`). Which starts may run is `start-rule.ts`'s, the same for all.
 *
 * @module
 */
import type { CallSink } from "../core/call/call-sink.ts";
import type { ToolCall } from "../core/call/middleware.ts";
import { resultOf } from "../core/call/output.ts";
import type { DeferredWork, JobBinder } from "../core/call/tool-promise.ts";
import type { Registry } from "../core/definitions/registry.ts";
import type { AnyTool } from "../core/definitions/tool.ts";
import { runDeclaredWork, type WorkOrigin, type WorkStart } from "./declared-work.ts";
import type { StartOptions } from "./running-jobs.ts";

/**
 * One start of a job: its work (the tool's declared work, or the inline work of `ctx.defer(fn)`, which is its sugar
 * and never meets a queue) and the options its run takes (the owner's output check, where its failures are reported).
 *
 * @param registry The server's registry.
 * @param owner The tool.
 * @param origin The work's input and the call's caller, metadata and trace.
 * @param start The job and this start of it.
 * @param call What its failures are reported with (the call, or the job as one: `job-call.ts`).
 * @param handler Where else the job is handed as it starts: the handler's context of inline work, which asks through
 *   the job from then on.
 * @returns The work and its options; `options.bind` hands the work its job.
 */
export function jobStart(
  registry: Registry,
  owner: AnyTool,
  origin: WorkOrigin,
  start: WorkStart,
  call?: ToolCall,
  handler?: JobBinder,
): { readonly work: DeferredWork; readonly options: StartOptions & { readonly bind: (sink: CallSink) => void } } {
  const { runtime } = registry;
  const unexpected = (error: unknown) => runtime.reportUnexpected(error, call);
  let sink: CallSink = {};
  return {
    work: (signal) => runDeclaredWork(registry, owner, origin, start, sink, signal),
    options: {
      onError: (error) => runtime.onError?.(error), // the store's errors: for logs, no caller is told of them
      onFailure: unexpected, // masked as a call's failure
      shape: (value) => resultOf(owner, value, unexpected), // the owner's output schema
      bind: (job) => (sink = job, handler?.(job)),
      timeoutMs: owner.longRunning?.timeoutMs,
    },
  };
}
