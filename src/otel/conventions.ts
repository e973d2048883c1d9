/**
 * The names the OpenTelemetry semantic conventions for MCP give (open-telemetry/semantic-conventions-genai,
 * `docs/gen-ai/mcp.md`, status Development), and the parts the server and client spans share: the span
 * name, the request's attributes, the trace context carriers, the duration histogram.
 *
 * @module
 */
import {
  type Attributes,
  type Context,
  createNoopMeter,
  type Histogram,
  isSpanContextValid,
  type Meter,
  type MeterProvider,
  metrics,
  propagation,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  type Span,
  type SpanContext,
  SpanStatusCode,
  type TextMapGetter,
  type TextMapSetter,
  trace,
} from "@opentelemetry/api";
import { isObject } from "../internal/is-object.ts";

/** The instrumentation scope's name, as spans and metrics carry it. */
export const SCOPE = "@mcplite/sdk";

/** The API's no-op tracer provider: the delegate of a proxy no SDK was registered with. */
const NOOP_TRACERS = new ProxyTracerProvider().getDelegate();
/** The API's no-op meter, which the no-op meter provider gives. */
const NOOP_METER = createNoopMeter();
/**
 * Where the OpenTelemetry API 1.x keeps what is registered with it (`setGlobalTracerProvider()` and the
 * rest), shared by every copy of the API of that major version: unset while nothing is registered.
 */
const REGISTERED = Symbol.for("opentelemetry.js.api.1");

/**
 * Whether the application registered neither a tracer provider nor a meter provider with the
 * OpenTelemetry API: spans and metrics would then go nowhere (and without a propagator no trace
 * context can be read either), so the middleware only passes the request on.
 *
 * @returns `true` when nothing would be recorded.
 */
export function telemetryOff(): boolean {
  if ((globalThis as Record<symbol, unknown>)[REGISTERED] === undefined) return true; // one read, the common case
  return !tracingOn() && metrics.getMeterProvider().getMeter(SCOPE) === NOOP_METER;
}

/**
 * Whether a tracer provider is registered with the copy of the OpenTelemetry API this package
 * resolves. `trace.getTracerProvider()` is then the provider, or the API's proxy delegating to it;
 * unregistered, it is the proxy delegating to the no-op provider. An SDK registered with another copy
 * of the API that this one does not accept (an older minor reads no global a newer one registered)
 * leaves this one unregistered too: nothing it records is exported.
 *
 * @returns `true` when spans would reach a registered provider.
 */
export function tracingOn(): boolean {
  const tracers = trace.getTracerProvider();
  return !(tracers instanceof ProxyTracerProvider) || tracers.getDelegate() !== NOOP_TRACERS;
}

/** The line that installs the OpenTelemetry API beside an SDK (the README's Observability section). */
export const INSTALL_LINE = "npm i @opentelemetry/api @opentelemetry/sdk-trace";

/** Bucket boundaries the conventions advise for the operation durations, in seconds. */
export const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/**
 * A histogram of durations, in seconds, with the buckets the conventions advise.
 *
 * @param meter The meter.
 * @param name The metric's name.
 * @param description What it measures.
 * @returns The histogram.
 */
export function durationHistogram(meter: Meter, name: string, description: string): Histogram {
  return meter.createHistogram(name, {
    unit: "s",
    description,
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
}

/** Records an operation's duration, in seconds, with its attributes. */
export type DurationRecorder = (seconds: number, attributes: Attributes) => void;

/**
 * Creates a recorder for one of the two operation duration histograms (`mcp.server.operation.duration`,
 * `mcp.client.operation.duration`), in seconds. The metrics API has no proxy provider (unlike tracing):
 * the histogram is made again from the global provider whenever the application registers another, so
 * `otel()` may be created before the SDK starts.
 *
 * @param provider The meter provider the user gave, if any (default: the global one).
 * @param name The metric's name.
 * @param description What it measures.
 * @returns The recorder.
 */
export function durationRecorder(
  provider: MeterProvider | undefined,
  name: string,
  description: string,
): DurationRecorder {
  let source: MeterProvider | undefined;
  let histogram: Histogram | undefined;
  return (seconds, attributes) => {
    const current = provider ?? metrics.getMeterProvider();
    if (current !== source || histogram === undefined) {
      source = current;
      histogram = durationHistogram(current.getMeter(SCOPE), name, description);
    }
    histogram.record(seconds, attributes);
  };
}

/**
 * Names a span `{mcp.method.name} {target}`: the target is the tool's or the prompt's name; a
 * resource URI is never part of the name (the conventions keep span names low-cardinality).
 *
 * @param method The MCP method.
 * @param name What the request names (tool, prompt, resource URI), if anything.
 * @returns The span name.
 */
export function spanName(method: string, name: string | undefined): string {
  return name !== undefined && (method === "tools/call" || method === "prompts/get") ? `${method} ${name}` : method;
}

/**
 * The attributes a request's method and target give, per the conventions: `mcp.method.name`,
 * `gen_ai.tool.name` and `gen_ai.operation.name = execute_tool` for a tool call, `gen_ai.prompt.name`,
 * `mcp.resource.uri`.
 *
 * @param method The MCP method.
 * @param name What the request names, if anything.
 * @returns The attributes.
 */
export function methodAttributes(method: string, name: string | undefined): Attributes {
  const attributes: Attributes = { "mcp.method.name": method };
  if (name === undefined) return attributes;
  if (method === "tools/call") {
    attributes["gen_ai.tool.name"] = name;
    attributes["gen_ai.operation.name"] = "execute_tool";
  } else if (method === "prompts/get") attributes["gen_ai.prompt.name"] = name;
  else if (method.startsWith("resources/")) attributes["mcp.resource.uri"] = name;
  return attributes;
}

/**
 * A span's W3C `traceparent` (W3C Trace Context §3.2), as the core carries it (`traceContext`).
 *
 * @param own The span's context.
 * @returns The header value, or `undefined` for an invalid context (no SDK).
 */
export function traceparentOf(own: SpanContext): string | undefined {
  if (!isSpanContextValid(own)) return undefined;
  return `00-${own.traceId}-${own.spanId}-${own.traceFlags.toString(16).padStart(2, "0")}`;
}

/** Reads trace context fields from a `_meta` object (MCP SEP-414: unprefixed `traceparent`, `tracestate`, `baggage`). */
const META_GETTER: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === "string" ? value : undefined;
  },
};

/** Reads trace context fields from HTTP headers or gRPC metadata (W3C Trace Context §3). */
const HEADER_GETTER: TextMapGetter<Headers> = {
  keys: (carrier) => [...carrier.keys()],
  get: (carrier, key) => carrier.get(key) ?? undefined,
};

/**
 * Extracts a remote context from a request's `_meta`, through the application's propagator.
 *
 * @param meta The `_meta` the request sent.
 * @returns The context, or `undefined` when `_meta` carries no `traceparent`.
 */
export function contextFromMeta(meta: Readonly<Record<string, unknown>> | undefined): Context | undefined {
  if (meta === undefined || typeof meta.traceparent !== "string") return undefined;
  return propagation.extract(ROOT_CONTEXT, meta, META_GETTER);
}

/**
 * Extracts a remote context from a request's headers or gRPC metadata, through the application's propagator.
 *
 * @param headers The headers.
 * @returns The context, or `undefined` without a `traceparent` header.
 */
export function contextFromHeaders(headers: Headers): Context | undefined {
  if (!headers.has("traceparent")) return undefined;
  return propagation.extract(ROOT_CONTEXT, headers, HEADER_GETTER);
}

/** Writes trace context fields into a plain record (for `params._meta`, headers and gRPC metadata alike). */
export const RECORD_SETTER: TextMapSetter<Record<string, string>> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

/**
 * Marks a span and its duration metric failed: `error.type` on both, the span's status `ERROR` with
 * `message` (OpenTelemetry semantic conventions, Recording errors).
 */
export function failed(span: Span, metric: Attributes, type: string, message: string): void {
  span.setAttribute("error.type", type);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  metric["error.type"] = type;
}

/**
 * Marks a span and its metric attributes failed by a thrown error: its `ErrorCode` as `error.type`, and the RPC
 * status the wire answered it with, where it has one (an `isError` result or an envelope carries none).
 */
export function failedBy(
  span: Span,
  metric: Attributes,
  answer: { type: string; status?: number | string },
  error: unknown,
): void {
  if (answer.status !== undefined) {
    span.setAttribute("rpc.response.status_code", answer.status);
    metric["rpc.response.status_code"] = answer.status;
  }
  failed(span, metric, answer.type, error instanceof Error ? error.message : String(error));
}

/** A failed tool's first text block, as the span status message. */
export function toolErrorMessage(result: unknown): string {
  const content = isObject(result) && Array.isArray(result.content) ? result.content : [];
  const text = content.find((block) => isObject(block) && block.type === "text");
  return isObject(text) && typeof text.text === "string" ? text.text : "tool_error";
}
