/**
 * The SERVER span of a request the server's edge refused before any method ran (a token refused, a Host
 * or Origin refused, a budget spent): its body was not read, so the MCP method is unknown and no MCP
 * span can be named for it (`mcp.method.name` is required there). It is an HTTP server span instead
 * (OpenTelemetry semantic conventions for HTTP, HTTP server span): named by the HTTP method alone (no
 * `http.route`), with `http.response.status_code` and `error.type`, the refusal's `ErrorCode`, the
 * same the client's error and its span carry (`unauthenticated`).
 *
 * @module
 */
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { EdgeObserver } from "../server/edge-observer.ts";
import { contextFromHeaders, SCOPE, telemetryOff } from "./conventions.ts";

/**
 * Creates the observer that records a span for each request the edge refuses.
 *
 * @returns The observer, for the gate (`OBSERVES_EDGE` on `otel()`'s middleware).
 */
export function edgeSpans(): EdgeObserver {
  return (error, request, status) => {
    if (telemetryOff()) return;
    const url = new URL(request.url);
    // The tracer of the provider registered now (a refusal is rare: no need to keep one).
    const span = trace.getTracer(SCOPE).startSpan(request.method, {
      kind: SpanKind.SERVER,
      attributes: {
        "http.request.method": request.method,
        "url.path": url.pathname,
        "url.scheme": url.protocol.slice(0, -1),
        "http.response.status_code": status,
        "error.type": error.code,
      },
    }, contextFromHeaders(request.headers) ?? context.active());
    // HTTP server spans: a 4xx leaves the status unset (the client erred), a 5xx is an error.
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    span.end();
  };
}
