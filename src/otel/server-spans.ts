/**
 * The middleware behind `otel()` (`src/otel/mod.ts`): it opens an OpenTelemetry SERVER span around every method on every
 * wire, named and attributed per the semantic conventions for MCP, and records
 * `mcp.server.operation.duration`.
 *
 * @module
 */
import { type Attributes, type Context, context, type Link, type Span, SpanKind, trace } from "@opentelemetry/api";
import { type CallMeta, type Middleware, traceContext, warnServer } from "../core/mod.ts";
import { isObject } from "../internal/is-object.ts";
import {
  contextFromHeaders,
  contextFromMeta,
  durationRecorder,
  failed,
  failedBy,
  INSTALL_LINE,
  methodAttributes,
  SCOPE,
  spanName,
  telemetryOff,
  toolErrorMessage,
  traceparentOf,
  tracingOn,
} from "./conventions.ts";
import { recordQueued } from "./worker-telemetry.ts";

type Call = Parameters<Middleware>[0];

/**
 * Options of {@link otel}. Spans and metrics go to the providers the application registered with the
 * OpenTelemetry API (as the SDK's `start()` does); without one, nothing is recorded.
 */
export interface OtelOptions {
  /**
   * Records a tool call's arguments as `gen_ai.tool.call.arguments` (JSON). Off by default: arguments
   * may hold what the user typed or secrets.
   */
  recordArguments?: boolean;
  /** Records a tool call's result as `gen_ai.tool.call.result` (JSON). Off by default, as arguments. */
  recordResults?: boolean;
}

/** How a call's wire answered an error, as a span records it. */
export interface WireError {
  /** `error.type`: the failure's wire-neutral `ErrorCode` (`unknown_tool`), the same on every wire. */
  readonly type: string;
  /** `rpc.response.status_code`, on an RPC wire that answered with a status (JSON-RPC's code, gRPC's status). */
  readonly status?: string;
}

/**
 * How a failure is named: its `ErrorCode`, and what the call's RPC wire answers it with (a JSON-RPC code,
 * a gRPC status); `src/otel/mod.ts` asks the bindings.
 */
export type ErrorNumbering = (error: unknown, meta: CallMeta, method: string) => WireError;

/**
 * Creates the middleware `otel()` (`src/otel/mod.ts`) returns, numbering errors with `codeOf`.
 *
 * @param options Whether to record arguments and results.
 * @param codeOf How the call's wire answers an error.
 * @param overdue What the call's wire answered when its deadline passed while the method ran (the wire
 *   answers the deadline, whatever the handler returned after it): `undefined` when it did not.
 * @returns The middleware.
 */
export function tracing(
  options: OtelOptions,
  codeOf: ErrorNumbering,
  overdue: (call: Call) => WireError | undefined = () => undefined,
): Middleware {
  const tracer = trace.getTracer(SCOPE);
  const duration = durationRecorder(
    undefined,
    "mcp.server.operation.duration",
    "MCP request duration as observed on the receiver, from the time it was received until the result is sent",
  );
  const { recordArguments = false, recordResults = false } = options;
  let checked = false;

  return (call, next) => {
    if (!checked) {
      // Checked at the first request, not here: the SDK may be registered after `otel()` is created.
      checked = true;
      if (!tracingOn()) warnServer(call.ctx, NO_PROVIDER);
    }
    // Without a registered SDK the request is only passed on: no span, no clock, no attributes.
    return telemetryOff() ? next() : traced(call, next);
  };

  async function traced(call: Call, next: () => Promise<unknown>): Promise<unknown> {
    const started = performance.now();
    const { method, name, params } = call;
    const meta = call.ctx.meta;
    const attributes = methodAttributes(method, name);
    const metric: Attributes = describeRequest(meta, attributes);
    const { parent, links } = parentOf(params, meta);
    const span = tracer.startSpan(spanName(method, name), { kind: SpanKind.SERVER, attributes, links }, parent);
    const own = traceparentOf(span.spanContext());
    // The handler's `ctx.log()` records carry it, and a promise token (or a queued job) keeps it for the link.
    if (own !== undefined) call.ctx.set(traceContext.TRACE_PARENT, own);
    if (recordArguments && method === "tools/call" && span.isRecording()) {
      span.setAttribute("gen_ai.tool.call.arguments", JSON.stringify(params.arguments ?? {}));
    }
    try {
      const result = await context.with(trace.setSpan(parent, span), next);
      const late = overdue(call);
      if (late !== undefined) {
        // The wire answered the deadline, not this result: the span names what the client was told.
        if (late.status !== undefined) span.setAttribute("rpc.response.status_code", late.status);
        failed(span, metric, late.type, "deadline exceeded");
      } else if (isObject(result) && result.kind === "failure") {
        failed(span, metric, "tool_error", toolErrorMessage(result.result));
      }
      if (recordResults && method === "tools/call" && isObject(result) && "result" in result && span.isRecording()) {
        span.setAttribute("gen_ai.tool.call.result", JSON.stringify(result.result));
      }
      recordQueued(span, call.ctx.get(traceContext.QUEUED_JOB));
      return result;
    } catch (error) {
      failedBy(span, metric, codeOf(error, meta, method), error);
      throw error;
    } finally {
      linkIssuer(span, call.ctx.get(traceContext.ISSUED_BY));
      span.end();
      duration((performance.now() - started) / 1000, metric);
    }
  }
}

/** The warning of an `otel()` whose first request finds no tracer provider registered. */
const NO_PROVIDER = "mcplite: otel() records no spans: no OpenTelemetry tracer provider is registered with the " +
  "@opentelemetry/api this package resolves. Register the SDK before serving, and install the API beside it so " +
  `that both share one copy (${INSTALL_LINE}).`;

/**
 * Adds what the request's metadata says: its protocol version and transport, then its id and session.
 *
 * @returns A copy of the attributes before the id and session, for the duration metric (the conventions
 *   leave high-cardinality attributes off metrics).
 */
function describeRequest(meta: CallMeta, attributes: Attributes): Attributes {
  const { requestId, protocolVersion, wire } = meta;
  if (protocolVersion !== undefined) attributes["mcp.protocol.version"] = protocolVersion;
  if (meta.transport === "pipe") attributes["network.transport"] = "pipe";
  else if (wire !== "in-process") attributes["network.transport"] = "tcp";
  const metric = { ...attributes };
  if (requestId !== undefined && requestId !== null) attributes["jsonrpc.request.id"] = String(requestId);
  const session = meta.sessionId ?? (wire === "mcp" ? meta.headers.get("mcp-session-id") ?? undefined : undefined);
  if (session !== undefined) attributes["mcp.session.id"] = session;
  return metric;
}

/** The span's parent: `_meta`'s trace context, else the header's (a link when both exist), else the active context. */
function parentOf(params: Readonly<Record<string, unknown>>, meta: CallMeta): { parent: Context; links: Link[] } {
  const sent = isObject(params._meta) ? params._meta : meta.requestMeta;
  const fromMeta = contextFromMeta(sent);
  const fromHeaders = meta.wire === "in-process" ? undefined : contextFromHeaders(meta.headers);
  if (fromMeta === undefined) return { parent: fromHeaders ?? context.active(), links: [] };
  const transport = fromHeaders === undefined ? undefined : trace.getSpanContext(fromHeaders);
  const own = trace.getSpanContext(fromMeta);
  const links = transport === undefined || transport.spanId === own?.spanId ? [] : [{ context: transport }];
  return { parent: fromMeta, links };
}

/**
 * Links a redeem's or task poll's span to the call that issued the promise (its `traceparent` travels
 * in the signed token), known only once the token was read, hence a link added after the start.
 */
function linkIssuer(span: Span, issuer: string | undefined): void {
  const parsed = issuer === undefined ? undefined : traceContext.parseTraceparent(issuer);
  if (parsed !== undefined) span.addLink({ context: { ...parsed, isRemote: true } });
}
