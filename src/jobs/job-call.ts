/**
 * A queued job as the call its errors are reported with (`onError(error, call)`, the server's error line): the
 * tool, the request id and the trace of the call that queued it, and the job and start it ran as, so that a worker's
 * line names them as a handler's does in process (docs/concepts/errors.md).
 *
 * @module
 */
import type { CallMeta } from "../core/call/call-meta.ts";
import type { ToolCall } from "../core/call/middleware.ts";
import { ToolCallContext } from "../core/call/tool-call-context.ts";
import { TRACE_PARENT } from "../core/call/trace-context.ts";

/** The context of a job's call as its reports carry it: a call's, with the job's id and its start. */
class JobCallContext extends ToolCallContext {
  /** The job's id (its result-store entry). */
  declare readonly jobId: string;
  /** Which start of the job, from 1. */
  declare readonly attempt: number;
  /** What the server's error line names of the job (`error-log.ts`): its id and start. */
  declare readonly job: { readonly job: string; readonly attempt: number };

  constructor(tool: string, meta: CallMeta, job: { readonly id: string; readonly attempt: number }) {
    super(tool, new AbortController().signal, meta);
    this.jobId = job.id;
    this.attempt = job.attempt;
    this.job = { job: job.id, attempt: job.attempt };
  }
}

/**
 * The call a job's failure is reported with.
 *
 * @param tool The job's tool.
 * @param input The job's input.
 * @param meta The metadata of the call that queued it (its request id).
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
  const ctx = new JobCallContext(tool, meta, job);
  if (traceparent !== undefined) ctx.set(TRACE_PARENT, traceparent);
  return { name: tool, arguments: input, ctx };
}
