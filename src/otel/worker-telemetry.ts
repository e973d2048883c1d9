/**
 * Workers in OpenTelemetry, per the semantic conventions for messaging (Messaging spans, status
 * Development): each job a worker takes is a CONSUMER span named `process {tool}` (the queue's jobs are
 * addressed by tool, as MCP spans name theirs), whose parent is the span of the call that queued the job
 * (its `traceparent` travels in the signed job) and which links to it as the creation context; the
 * handler's request span on the worker is its child. The call's span records the enqueue as an event. A
 * worker's close is a `worker drain` span. Metrics: `worker-metrics.ts`.
 *
 * @module
 */
import { McpliteError } from "../errors/error.ts";
import {
  type Attributes,
  type Context,
  context,
  type Link,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { traceContext } from "../core/mod.ts";
import { isObject } from "../internal/is-object.ts";
import type { JobObserver, JobOutcome, JobWatch } from "../jobs/worker/job-observer.ts";
import { SCOPE, telemetryOff, traceparentOf } from "./conventions.ts";
import { type WorkerMetrics, workerMetrics } from "./worker-metrics.ts";

/**
 * `messaging.system`: the SDK's queue seam (`createServer({ queue })`), whichever library is behind it
 * (BullMQ, a queue of one's own); the conventions let an instrumentation name a system they do not list.
 */
const SYSTEM = "mcplite";

/** The attributes every job's span and metrics carry. */
const PROCESS: Attributes = { "messaging.system": SYSTEM, "messaging.operation.name": "process" };

/**
 * Records on a call's span that it queued a job for a worker: an event `mcplite.job.queued` with the
 * job's `messaging.message.id`, which the worker's span carries too.
 *
 * @param span The call's span.
 * @param id The job's id, when the call queued one.
 */
export function recordQueued(span: Span, id: string | undefined): void {
  if (id === undefined) return;
  span.addEvent("mcplite.job.queued", {
    "messaging.system": SYSTEM,
    "messaging.operation.type": "send",
    "messaging.message.id": id,
  });
}

/**
 * Creates the observer of a worker: a span and metrics for each job it takes, a span for its drain.
 *
 * @returns The observer (`runWorker()` finds it on `otel()`'s middleware).
 */
export function workerTelemetry(): JobObserver {
  const tracer = trace.getTracer(SCOPE);
  const metrics = workerMetrics();
  return {
    took: () => telemetryOff() ? undefined : jobWatch(tracer, metrics),
    draining(running) {
      if (telemetryOff()) return () => {};
      const span = tracer.startSpan("worker drain", {
        kind: SpanKind.INTERNAL,
        attributes: { "messaging.system": SYSTEM, "mcplite.worker.jobs.running": running },
      });
      return (givenBack) => {
        span.setAttribute("mcplite.worker.jobs.given_back", givenBack);
        span.end();
      };
    },
  };
}

/** The span and metrics of one job a worker took, opened when the job is read (else when it ends). */
function jobWatch(tracer: ReturnType<typeof trace.getTracer>, metrics: WorkerMetrics): JobWatch {
  const takenAt = Date.now();
  const started = performance.now();
  const attributes: Attributes = { ...PROCESS };
  let span: Span | undefined;
  metrics.running(1, PROCESS);
  const open = (name: string, parent: Context, links: Link[], job: Attributes) =>
    tracer.startSpan(name, {
      kind: SpanKind.CONSUMER,
      startTime: takenAt,
      links,
      attributes: { ...PROCESS, "messaging.operation.type": "process", ...job },
    }, parent);
  return {
    read(job) {
      attributes["gen_ai.tool.name"] = job.tool;
      metrics.lag(Math.max(0, takenAt - job.queuedAt) / 1000, { ...attributes });
      const creation = job.traceparent === undefined ? undefined : traceContext.parseTraceparent(job.traceparent);
      const remote = creation === undefined ? undefined : { ...creation, isRemote: true };
      const parent = remote === undefined ? context.active() : trace.setSpanContext(ROOT_CONTEXT, remote);
      span = open(`process ${job.tool}`, parent, remote === undefined ? [] : [{ context: remote }], {
        "messaging.message.id": job.id,
        "gen_ai.tool.name": job.tool,
      });
      return traceparentOf(span.spanContext());
    },
    end(outcome, attempt, error) {
      span ??= open("process", context.active(), [], {}); // not read: expired, unverifiable, or given back first
      attributes["mcplite.job.outcome"] = outcome;
      span.setAttribute("mcplite.job.outcome", outcome);
      if (attempt !== undefined) span.setAttribute("mcplite.job.attempt", attempt);
      const failure = failureOf(outcome, error);
      if (failure !== undefined) {
        attributes["error.type"] = failure.type;
        span.setAttribute("error.type", failure.type);
        span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
      }
      span.end();
      metrics.running(-1, PROCESS);
      metrics.ended((performance.now() - started) / 1000, attributes);
    },
  };
}

/**
 * What failed a job (`error.type` and the status message), when it failed: a tool error result is
 * `tool_error` as on the call's span, an SDK error its `ErrorCode`, a failure the store recorded its code,
 * another error its name; a job whose starts were all taken is `stopped`.
 */
function failureOf(outcome: JobOutcome, error: unknown): { type: string; message: string } | undefined {
  if (outcome === "stopped") {
    return { type: "stopped", message: "every start of the job was taken by a worker that stopped" };
  }
  if (outcome !== "failed") return undefined;
  if (error === undefined) return { type: "tool_error", message: "the tool's result is an error" };
  const message = isObject(error) && typeof error.message === "string" ? error.message : String(error);
  if (error instanceof McpliteError) return { type: error.code, message };
  if (isObject(error) && (typeof error.code === "string" || typeof error.code === "number")) {
    return { type: String(error.code), message };
  }
  return { type: error instanceof Error ? error.name : "_OTHER", message };
}
