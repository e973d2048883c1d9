/**
 * `otelClient()`: a CLIENT span around every request a client sends, carrying its trace context to the
 * server, and `mcp.client.operation.duration`.
 *
 * @module
 */
import {
  type Attributes,
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from "@opentelemetry/api";
import type {
  ClientTelemetry,
  Reply,
  RequestContext,
  ToolCallRequest,
  ToolListing,
  Transport,
} from "../client/transport.ts";
import {
  type DurationRecorder,
  durationRecorder,
  methodAttributes,
  RECORD_SETTER,
  SCOPE,
  spanName,
  telemetryOff,
} from "./conventions.ts";

/**
 * Creates client telemetry for `createClient(target, { telemetry: otelClient() })`: every request the
 * client sends (each redeem, input round and task poll included) is a CLIENT span named
 * `{mcp.method.name} {target}` under the caller's active span, whose trace context (`traceparent`,
 * `tracestate`, `baggage`, through the application's propagator) goes to the server in `params._meta`
 * (MCP SEP-414) and in the HTTP headers or gRPC metadata, so that the server's span is its child. A
 * tool's `isError` result sets `error.type = tool_error`; a JSON-RPC error its code. Each request also
 * records `mcp.client.operation.duration` (seconds), through the providers the application registered
 * with the OpenTelemetry API; without one, nothing is recorded.
 *
 * @returns The telemetry, for `createClient()`'s `telemetry` option.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "../../mod.ts";
 * import { createClient } from "../client/mod.ts";
 * import { otel, otelClient } from "../otel.ts";
 *
 * const add = defineTool("add").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) => a + b);
 * const server = createServer({ name: "math", version: "1.0.0" }).tool(add).use(otel());
 * const client = createClient(server, { telemetry: otelClient() });
 * assert.equal(String(await client.call("add", { a: 1, b: 2 })), "3");
 * ```
 */
export function otelClient(): ClientTelemetry {
  const tracer = trace.getTracer(SCOPE);
  const duration = durationRecorder(
    undefined,
    "mcp.client.operation.duration",
    "MCP request duration as observed on the sender, from the time it was sent until the response is received",
  );
  return { instrument: (transport) => new TracedTransport(transport, tracer, duration) };
}

/** A transport whose every request is a CLIENT span. */
class TracedTransport implements Transport {
  readonly #inner: Transport;
  readonly #tracer: Tracer;
  readonly #duration: DurationRecorder;
  readonly request?: (method: string, params: Record<string, unknown>, ctx: RequestContext) => Promise<Reply>;
  readonly discover?: (ctx: RequestContext) => Promise<Record<string, unknown>>;
  readonly close?: () => Promise<void>;

  constructor(inner: Transport, tracer: Tracer, duration: DurationRecorder) {
    this.#inner = inner;
    this.#tracer = tracer;
    this.#duration = duration;
    // Only what the wire has: the client tells a missing `request` or `discover` apart.
    if (inner.request !== undefined) {
      this.request = (method, params, ctx) => {
        const name = typeof params.name === "string" ? params.name : undefined;
        return this.#traced(method, name, ctx, (c) => inner.request!(method, params, c), replyFailed);
      };
    }
    if (inner.discover !== undefined) {
      this.discover = (ctx) => this.#traced("server/discover", undefined, ctx, (c) => inner.discover!(c));
    }
    if (inner.close !== undefined) this.close = () => inner.close!();
  }

  get wire(): string {
    return this.#inner.wire;
  }

  listTools(ctx: RequestContext): Promise<ToolListing> {
    return this.#traced("tools/list", undefined, ctx, (c) => this.#inner.listTools(c));
  }

  callTool(call: ToolCallRequest, ctx: RequestContext): Promise<Reply> {
    return this.#traced("tools/call", call.name, ctx, (c) => this.#inner.callTool(call, c), replyFailed);
  }

  async #traced<T>(
    method: string,
    name: string | undefined,
    ctx: RequestContext,
    send: (ctx: RequestContext) => Promise<T>,
    failed?: (value: T) => string | undefined,
  ): Promise<T> {
    if (telemetryOff()) return send(ctx);
    const started = performance.now();
    const attributes = methodAttributes(method, name);
    const active = context.active();
    const span = this.#tracer.startSpan(spanName(method, name), { kind: SpanKind.CLIENT, attributes }, active);
    const inSpan = trace.setSpan(active, span);
    const traceContext: Record<string, string> = {};
    propagation.inject(inSpan, traceContext, RECORD_SETTER);
    const metric: Attributes = { ...attributes };
    const sent = Object.keys(traceContext).length === 0 ? ctx : { ...ctx, traceContext };
    try {
      const value = await context.with(inSpan, send, undefined, sent);
      const message = failed?.(value);
      if (message !== undefined) {
        span.setAttribute("error.type", "tool_error");
        span.setStatus({ code: SpanStatusCode.ERROR, message });
        metric["error.type"] = "tool_error";
      }
      return value;
    } catch (error) {
      const rpcCode = (error as { rpcCode?: unknown } | null)?.rpcCode;
      const type = typeof rpcCode === "number" ? String(rpcCode) : error instanceof Error ? error.name : "_OTHER";
      if (typeof rpcCode === "number") {
        span.setAttribute("rpc.response.status_code", type);
        metric["rpc.response.status_code"] = type;
      }
      span.setAttribute("error.type", type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      metric["error.type"] = type;
      throw error;
    } finally {
      span.end();
      this.#duration((performance.now() - started) / 1000, metric);
    }
  }
}

/** A complete reply whose result is `isError`: its first text, as the span's status message. */
function replyFailed(reply: Reply): string | undefined {
  if (reply.kind !== "complete" || reply.result.isError !== true) return undefined;
  const content = Array.isArray(reply.result.content) ? reply.result.content : [];
  const text = content.find((block) => block?.type === "text")?.text;
  return typeof text === "string" ? text : "tool_error";
}
