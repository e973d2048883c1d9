/**
 * `otelClient()`: a CLIENT span around every request a client sends, carrying its trace context to the
 * server, and `mcp.client.operation.duration`.
 *
 * @module
 */
import { type Attributes, context, propagation, SpanKind, trace, type Tracer } from "@opentelemetry/api";
import { McpliteError } from "../errors/error.ts";
import type {
  ClientTelemetry,
  OutgoingRequest,
  Reply,
  RequestContext,
  ToolCallRequest,
  ToolListing,
  TraceRequest,
  Transport,
} from "../client/transport.ts";
import { isObject } from "../internal/is-object.ts";
import { RESULT_ERROR_CODE } from "../internal/mcp-wire.ts";
import {
  type DurationRecorder,
  durationRecorder,
  failed,
  failedBy,
  methodAttributes,
  RECORD_SETTER,
  SCOPE,
  spanName,
  telemetryOff,
  toolErrorMessage,
} from "./conventions.ts";

/**
 * Creates client telemetry for `createClient(target, { telemetry: otelClient() })`: every request the
 * client sends (each redeem, input round and task poll included) is a CLIENT span named
 * `{mcp.method.name} {target}` under the caller's active span, whose trace context (`traceparent`,
 * `tracestate`, `baggage`, through the application's propagator) goes to the server in `params._meta`
 * (MCP SEP-414) and in the HTTP headers or gRPC metadata, so that the server's span is its child. A
 * tool's `isError` result sets `error.type = tool_error`; a failure, the client error's `code`, which is
 * the server's `ErrorCode` (`unknown_tool`, `invalid_arguments`, …) as the server's span names it, with
 * `rpc.response.status_code` what an RPC wire answered (a JSON-RPC code, a gRPC status such as
 * `NOT_FOUND`). Each request also
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
 * import { otel, otelClient } from "./mod.ts";
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
  /** The inner transport's `tracesRequests`, read once: a transport declares it for its lifetime. */
  readonly #tracesRequests: boolean;
  readonly request?: (method: string, params: Record<string, unknown>, ctx: RequestContext) => Promise<Reply>;
  readonly discover?: (ctx: RequestContext) => Promise<Record<string, unknown>>;
  readonly close?: () => Promise<void>;

  constructor(inner: Transport, tracer: Tracer, duration: DurationRecorder) {
    this.#inner = inner;
    this.#tracer = tracer;
    this.#duration = duration;
    this.#tracesRequests = inner.tracesRequests === true;
    // Only what the wire has: the client tells a missing `request` or `discover` apart.
    if (inner.request !== undefined) {
      this.request = (method, params, ctx) =>
        this.#traced({ method, params }, ctx, (c) => inner.request!(method, params, c));
    }
    if (inner.discover !== undefined) {
      this.discover = (ctx) => this.#traced({ method: "server/discover", params: {} }, ctx, (c) => inner.discover!(c));
    }
    if (inner.close !== undefined) this.close = () => inner.close!();
  }

  get wire(): string {
    return this.#inner.wire;
  }

  listTools(ctx: RequestContext): Promise<ToolListing> {
    return this.#traced({ method: "tools/list", params: {} }, ctx, (c) => this.#inner.listTools(c));
  }

  callTool(call: ToolCallRequest, ctx: RequestContext): Promise<Reply> {
    return this.#traced(
      { method: "tools/call", params: { name: call.name } },
      ctx,
      (c) => this.#inner.callTool(call, c),
    );
  }

  /**
   * A transport that sends each request through `ctx.traceRequest` (MCP, MCP-lite) gets the hook, and
   * each request it sends, its own probes, lists and handshakes included, is a span of its own; any
   * other transport's method call is one request, and one span.
   */
  #traced<T>(request: OutgoingRequest, ctx: RequestContext, send: (ctx: RequestContext) => Promise<T>): Promise<T> {
    if (telemetryOff()) return send(ctx);
    if (this.#tracesRequests) return send({ ...ctx, traceRequest: this.#span });
    return this.#span(request, ctx, send);
  }

  /**
   * Sends one request in a CLIENT span under the caller's active context: the requests a call makes on
   * its own (the `server/discover` probe, the tool list, `initialize`) are siblings of the call's own
   * request, not its children, so that each span covers one round trip and has one SERVER child.
   */
  readonly #span: TraceRequest = async (request, ctx, exchange) => {
    const started = performance.now();
    const { method, params, id, sessionId } = request;
    const target = targetOf(method, params);
    const attributes = { ...methodAttributes(method, target), ...peerAttributes(request) };
    const metric: Attributes = { ...attributes };
    if (id !== undefined) attributes["jsonrpc.request.id"] = String(id);
    if (sessionId !== undefined) attributes["mcp.session.id"] = sessionId;
    const active = context.active();
    const span = this.#tracer.startSpan(spanName(method, target), { kind: SpanKind.CLIENT, attributes }, active);
    const inSpan = trace.setSpan(active, span);
    const traceContext: Record<string, string> = {};
    propagation.inject(inSpan, traceContext, RECORD_SETTER);
    const sent: RequestContext = {
      ...ctx,
      traceRequest: undefined,
      ...(Object.keys(traceContext).length === 0 ? {} : { traceContext }),
    };
    try {
      const value = await context.with(inSpan, exchange, undefined, sent);
      const failure = method === "tools/call" ? toolErrorOf(value) : undefined;
      if (failure !== undefined) failed(span, metric, failure.type, failure.message);
      return value;
    } catch (error) {
      failedBy(span, metric, answeredWith(error, this.#inner.wire), error);
      throw error;
    } finally {
      span.end();
      this.#duration((performance.now() - started) / 1000, metric);
    }
  };
}

/**
 * How a failed request is named, as the server's span names it (`otel()`): `error.type` is the client
 * error's `code` (the server's `ErrorCode`, or the client's own condition: `timeout`, `transport`), else
 * the error's class name; `rpc.response.status_code` what an RPC wire answered: the JSON-RPC code, the
 * gRPC status (`NOT_FOUND`, per the OpenTelemetry semantic conventions for gRPC).
 */
function answeredWith(error: unknown, wire: string): { type: string; status?: string } {
  const { code, rpcCode, data } = (error ?? {}) as { code?: unknown; rpcCode?: unknown; data?: unknown };
  const type = error instanceof McpliteError && typeof code === "string"
    ? code
    : error instanceof Error
    ? error.name
    : "_OTHER";
  if (typeof rpcCode === "number") return { type, status: String(rpcCode) };
  if (wire === "grpc" && isObject(data) && typeof data.grpcCode === "string") {
    return { type, status: data.grpcCode.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase() }; // Connect's `NotFound`
  }
  return { type };
}

/** What a request names: the tool's or prompt's `name`, the resource's `uri`. */
function targetOf(method: string, params: Readonly<Record<string, unknown>>): string | undefined {
  const target = method.startsWith("resources/") ? params.uri : params.name;
  return typeof target === "string" ? target : undefined;
}

/** `mcp.protocol.version`, `server.address`, `server.port` and `network.transport`, where known. */
function peerAttributes({ protocolVersion, peer }: OutgoingRequest): Attributes {
  const attributes: Attributes = {};
  if (protocolVersion !== undefined) attributes["mcp.protocol.version"] = protocolVersion;
  if (peer?.address !== undefined) attributes["server.address"] = peer.address;
  if (peer?.port !== undefined) attributes["server.port"] = peer.port;
  if (peer !== undefined) attributes["network.transport"] = peer.transport;
  return attributes;
}

/**
 * A tool result that is `isError` (a transport's complete reply, or the JSON-RPC result it read): its
 * code (`tool_error`, or the server's when it answered an error as a result: MCP's invalid arguments)
 * and its first text, as the span's status message.
 */
function toolErrorOf(value: unknown): { type: string; message: string } | undefined {
  const result = isObject(value) && isObject(value.result) ? value.result : undefined;
  if (result?.isError !== true) return undefined;
  const code = isObject(result._meta) ? result._meta[RESULT_ERROR_CODE] : undefined;
  return { type: typeof code === "string" ? code : "tool_error", message: toolErrorMessage(result) };
}
