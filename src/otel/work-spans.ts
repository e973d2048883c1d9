/**
 * Declared work in OpenTelemetry: each start of a tool's `.defer()` work is an INTERNAL span `work {tool}` in the
 * trace of the call that started it (a child of the call's span in process, of the job's CONSUMER span on a
 * worker), made active while the work runs, so the spans its libraries make are its children. A run that suspends
 * (a queued `work.sleep()`) ends its span as it ends: the run that wakes has its own.
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
  let open = true;
  const end = (error?: unknown) => {
    if (!open) return;
    open = false;
    if (error !== undefined) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    }
    span.end();
  };
  // A run that suspends (a queued `work.sleep()`) never settles `next()`: its span ends as the run's signal aborts,
  // with an `AbortError` (no error); a cancellation or a timeout ends it with its reason.
  const aborted = () => {
    const reason = work.signal.reason;
    end(reason instanceof DOMException && reason.name === "AbortError" ? undefined : reason);
  };
  work.signal.addEventListener("abort", aborted, { once: true });
  try {
    return await context.with(trace.setSpan(parent, span), next);
  } catch (error) {
    end(error);
    throw error;
  } finally {
    work.signal.removeEventListener("abort", aborted);
    end();
  }
};
