/**
 * A job as the call its errors are reported with (`onError(error, call)`, the server's error line): the tool, the
 * request id and the trace of the call that queued it (or of the read that restarted it), and the job and start it ran
 * as, so that a worker's line, and an in-process restart's, names them as a handler's does (docs/concepts/errors.md).
 *
 * @module
 */
import type { CallMeta } from "../core/call/call-meta.ts";
import type { ToolCall } from "../core/call/middleware.ts";
import { ToolCallContext } from "../core/call/tool-call-context.ts";
import { TRACE_PARENT } from "../core/call/trace-context.ts";

/**
 * The call a job's failure is reported with.
 *
 * @param tool The job's tool.
 * @param input The job's input.
 * @param meta The metadata of the call that queued it (its request id), or of the read that restarted it.
 * @param job The job's id and which start of it ran.
 * @param traceparent The trace the job runs in (its span's, else the call's).
 * @returns The call, for `onError` and `reportUnexpected()`.
 */
export function jobCall(
  tool: string,
  input: unknown,
  meta: CallMeta,
  job: { readonly id: string; readonly attempt: number },
  traceparent: string | undefined,
): ToolCall {
  // A call's context, with the job's id and start (`call.ctx.jobId`, `call.ctx.attempt` for an `onError`), and what
  // the server's error line names of them (`job`, `error-log.ts`).
  const ctx = Object.assign(new ToolCallContext(tool, new AbortController().signal, meta), {
    jobId: job.id,
    attempt: job.attempt,
    job: { job: job.id, attempt: job.attempt },
  });
  if (traceparent !== undefined) ctx.set(TRACE_PARENT, traceparent);
  return { name: tool, arguments: input, ctx };
}
