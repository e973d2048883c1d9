/**
 * Declared work in OpenTelemetry: each start of a tool's `.defer()` work is an INTERNAL span `work {tool}` in the
 * trace of the call that started it (a child of the call's span in process, of the job's CONSUMER span on a
 * worker), made active while the work runs, so the spans its libraries make are its children.
 *
 * @module
 */
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { traceContext } from "../core/mod.ts";
import type { Middleware } from "../core/mod.ts";
import { SCOPE } from "./conventions.ts";

/** The `work` hook of `otel()`'s middleware: a span around each start of declared work. */
export const workSpans: NonNullable<Middleware["work"]> = async (work, next) => {
  const parsed = traceContext.parseTraceparent(work.get(traceContext.TRACE_PARENT) ?? "");
  const parent = parsed === undefined
    ? context.active()
    : trace.setSpanContext(ROOT_CONTEXT, { ...parsed, isRemote: true });
  const span = trace.getTracer(SCOPE).startSpan(`work ${work.tool}`, {
    kind: SpanKind.INTERNAL,
    attributes: { "gen_ai.tool.name": work.tool, "mcplite.job.attempt": work.attempt },
  }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), next);
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
};
