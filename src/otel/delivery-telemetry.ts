/**
 * Webhook deliveries of MCP Events in OpenTelemetry: each attempt a CLIENT span `deliver {event}` (a child of the
 * worker's job span on a worker, else of the emit's span) linked to the emit's span, with the event, subscription,
 * attempt and the HTTP status answered; and two counters, `mcplite.event.delivery.attempts` by outcome (delivered,
 * retried, failed, dropped, ended, refused, skipped) and `mcplite.event.subscriptions.suspended`.
 *
 * @module
 */
import { context, type Link, metrics, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { traceContext } from "../core/mod.ts";
import type { DeliveryObserver } from "../events/delivery/delivery-observer.ts";
import { SCOPE, telemetryOff, traceparentOf } from "./conventions.ts";

/**
 * Creates the observer of a server's deliveries (delivery finds it on `otel()`'s middleware).
 *
 * @returns The observer.
 */
export function deliveryTelemetry(): DeliveryObserver {
  const tracer = trace.getTracer(SCOPE);
  const meter = metrics.getMeterProvider().getMeter(SCOPE);
  const attempts = meter.createCounter("mcplite.event.delivery.attempts", {
    unit: "{attempt}",
    description: "Webhook delivery attempts of MCP Events, by outcome (mcplite.event.delivery.outcome)",
  });
  const suspended = meter.createCounter("mcplite.event.subscriptions.suspended", {
    unit: "{subscription}",
    description: "Event subscriptions suspended after deliveries failed, or a callback refused at delivery",
  });
  return {
    current() {
      const span = trace.getActiveSpan();
      return span === undefined ? undefined : traceparentOf(span.spanContext());
    },
    attempt(a) {
      const event = { "mcplite.event.name": a.event };
      if (telemetryOff()) {
        return ({ outcome }) => attempts.add(1, { ...event, "mcplite.event.delivery.outcome": outcome });
      }
      const parent = remote(a.parent);
      const emit = remote(a.emit);
      const links: Link[] = emit === undefined ? [] : [{ context: emit }];
      const span = tracer.startSpan(`deliver ${a.event}`, {
        kind: SpanKind.CLIENT,
        links,
        attributes: {
          ...event,
          "mcplite.subscription.id": a.subscriptionId,
          "mcplite.event.delivery.attempt": a.attempt,
          "http.request.method": "POST",
        },
      }, parent === undefined ? context.active() : trace.setSpanContext(ROOT_CONTEXT, parent));
      return ({ outcome, status, error }) => {
        span.setAttribute("mcplite.event.delivery.outcome", outcome);
        if (status !== undefined) span.setAttribute("http.response.status_code", status);
        if (outcome === "failed" || outcome === "refused" || (outcome === "retried" && status === undefined)) {
          const type = status !== undefined ? String(status) : error instanceof Error ? error.name : outcome;
          span.setAttribute("error.type", type);
          span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : type });
        }
        span.end();
        attempts.add(1, { ...event, "mcplite.event.delivery.outcome": outcome });
      };
    },
    suspended: (name) => suspended.add(1, { "mcplite.event.name": name }),
  };
}

/** A `traceparent`'s span context, as a remote parent or link. */
function remote(traceparent: string | undefined) {
  const parsed = traceparent === undefined ? undefined : traceContext.parseTraceparent(traceparent);
  return parsed === undefined ? undefined : { ...parsed, isRemote: true };
}
