/**
 * OpenTelemetry for MCP-lite and MCP servers and clients, per the semantic conventions for MCP
 * (open-telemetry/semantic-conventions-genai, `docs/gen-ai/mcp.md`): `otel()` traces every method a
 * server answers, on every wire, and `otelClient()` every request a client sends, carrying the trace
 * context to the server (`params._meta`, headers, gRPC metadata). It depends on `@opentelemetry/api`
 * only: the application registers the SDK and exporters it wants; without one, nothing is recorded.
 * The tracing itself (`src/otel/`) knows no wire: this entry gives it the bindings' error numbering.
 *
 * @module
 */
import { ErrorCode, McpliteError, ProtocolError } from "../errors/error.ts";
import { budgeting, type CallMeta, type Middleware, registryOf } from "../core/mod.ts";
import { answersAsToolResult, legacyErrorToWire, modernErrorToWire } from "../errors/mcp-codes.ts";
import { errorCodeToWire } from "../errors/mcplite-codes.ts";
import { GrpcStatus, grpcStatusName, grpcStatusOf } from "../errors/grpc-status.ts";
import { type OtelOptions, tracing, type WireError } from "./server-spans.ts";
import { observeBudgets } from "./budget-metrics.ts";
import { attachListener } from "../server/listener.ts";
import { type ObservedEdge, observeEdge, OBSERVES_EDGE } from "../server/edge-observer.ts";
import { edgeSpans } from "./edge-spans.ts";
import { OBSERVES_JOBS } from "../jobs/worker/job-observer.ts";
import { workSpans } from "./work-spans.ts";
import { workerTelemetry } from "./worker-telemetry.ts";
import { OBSERVES_DELIVERIES } from "../events/delivery/delivery-observer.ts";
import { deliveryTelemetry } from "./delivery-telemetry.ts";

export type { OtelOptions } from "./server-spans.ts";
export { otelClient } from "./client-spans.ts";

/**
 * Creates request middleware that traces every method on every wire (MCP 2026-07-28 and 2025, MCP-lite
 * over HTTP and stdio, gRPC/Connect, Webtools) as a SERVER span named `{mcp.method.name} {target}`.
 *
 * The span's parent is the trace context in the request's `params._meta` (MCP SEP-414), else the
 * `traceparent` header or gRPC metadata (W3C Trace Context), else the active context; when `_meta` and
 * the header both carry one, the header's span is a link. A tool's `isError` result sets the status to
 * ERROR with `error.type = tool_error`; a protocol error sets `error.type` to its wire-neutral
 * `ErrorCode` (`unknown_tool`, `invalid_arguments`, `unauthenticated`, `permission_denied`, …), the same
 * on every wire and as `otelClient()` and the client's error name it, and `rpc.response.status_code` to
 * what an RPC wire answered: on JSON-RPC its code, on gRPC the status's name (`NOT_FOUND`). Each request also
 * records `mcp.server.operation.duration` (seconds). A request the server's edge refuses before any
 * method runs (a token refused, a Host or Origin refused, a budget spent) gets an HTTP SERVER span named
 * by its HTTP method (`POST`: its body was not read, so its MCP method is unknown), with
 * `http.response.status_code` and `error.type` (`unauthenticated`). On a server with a queue, a call's span
 * records the job it queued (event `mcplite.job.queued`), and `runWorker()` finds here a CONSUMER span
 * (`process {tool}`, in the call's trace) for each job it runs and its metrics (semantic conventions for
 * messaging: `messaging.process.duration`, `messaging.client.consumed.messages` by outcome). A server serving
 * MCP Events makes a CLIENT span `deliver {event}` per webhook delivery attempt, linked to the emit's span, and
 * counts attempts by outcome (`mcplite.event.delivery.attempts`) and suspended subscriptions. Without a
 * registered OpenTelemetry SDK, nothing is recorded, and the first request gives one warning (to the
 * server's `logger`, else `console.warn`) naming the install line.
 *
 * @param options Whether to record arguments and results.
 * @returns The middleware, for `server.use()`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "../../mod.ts";
 * import { otel } from "./mod.ts";
 *
 * const add = defineTool("add").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) => a + b);
 * const warnings: string[] = [];
 * const logger = { debug() {}, info() {}, warn: (m: unknown) => void warnings.push(String(m)), error() {} };
 * const server = createServer({ name: "math", version: "1.0.0", logger }).tool(add).use(otel());
 * // No SDK registered: the call is answered as usual, nothing is recorded, and the logger is told once.
 * assert.equal((await server.call("add", { a: 1, b: 2 })).kind, "answer");
 * assert.equal(warnings.filter((w) => w.includes("npm i @opentelemetry/api")).length, 1);
 * ```
 */
export function otel(options: OtelOptions = {}): Middleware {
  // The requests the edge refuses (a token refused: 401) reach no middleware: the server hands this to its gate.
  // And a worker (`runWorker()`) finds its job spans and metrics here.
  return Object.assign(tracing(options, wireErrorOf, overdueOf), {
    [OBSERVES_EDGE]: (gate: ObservedEdge) => observeEdge(gate, edgeSpans()),
    [OBSERVES_JOBS]: workerTelemetry,
    [OBSERVES_DELIVERIES]: deliveryTelemetry, // a span per webhook delivery attempt of MCP Events, and counters
    work: workSpans, // declared work's span, on a worker too (no request middleware runs there)
  });
}

/**
 * A gRPC call whose deadline (gRPC over HTTP/2, Timeouts: `grpc-timeout`; Connect protocol:
 * `connect-timeout-ms`) passed while its method ran is answered DEADLINE_EXCEEDED, whatever its handler
 * returned after: its span names that. Only a call that sent a deadline has its signal read.
 */
function overdueOf(call: Parameters<Middleware>[0]): WireError | undefined {
  const meta = call.ctx.meta;
  if (meta.wire !== "grpc" || !(meta.headers.has("grpc-timeout") || meta.headers.has("connect-timeout-ms"))) {
    return undefined;
  }
  const signal = call.ctx.signal;
  if (!signal.aborted || errorCodeOf(signal.reason) !== "deadline_exceeded") return undefined;
  return { type: "deadline_exceeded", status: grpcStatusName(GrpcStatus.DEADLINE_EXCEEDED) };
}

/**
 * Exposes a server's budgets across requests (`createServer({ limits })`) as OpenTelemetry metrics, read
 * at each collection (nothing is added to a request's path): for each of `body_bytes`, `calls`,
 * `held_streams` and `jobs`, `mcplite.server.budget.<name>.usage` (in use now) and `.limit`; and
 * `mcplite.server.budget.refused`, the requests refused past a budget (and calls not held), by budget
 * (attribute `mcplite.budget`); and `mcplite.server.calls.aborted`, the calls their callers gave up on
 * (cancelled, disconnected), counted there instead of reported to `onError`. They go to the meter provider registered with the OpenTelemetry API
 * when it is called: call it once the SDK is started (the metrics API has no proxy provider).
 *
 * @param server A server from `createServer()`.
 * @returns Stops observing.
 * @throws {TypeError} When `server` was not made by `createServer()`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer } from "../../mod.ts";
 * import { otel, otelBudgets } from "./mod.ts";
 *
 * const server = createServer({ name: "busy", version: "1.0.0", limits: { calls: 256 } }).use(otel());
 * const stop = otelBudgets(server); // after the SDK's start(): usage, limits and refusals, by budget
 * assert.equal(typeof stop, "function");
 * stop();
 * ```
 */
export function otelBudgets(server: object): () => void {
  return observeBudgets(budgeting.of(registryOf(attachListener(server).core).runtime));
}

/**
 * How a failure is named (`error.type`): by its wire-neutral `ErrorCode`, the same on every wire and in
 * the client's error and span (`otelClient()`); a masked error is `internal`. What the wire answered
 * goes in `rpc.response.status_code` where the wire is RPC: the JSON-RPC code (MCP 2026-07-28 answers an
 * unknown tool -32602, MCP-lite -32601), the gRPC status's name (OpenTelemetry semantic conventions for
 * gRPC: `NOT_FOUND`). MCP's invalid arguments to `tools/call` are an `isError` result, with no status;
 * Webtools answers in its envelope, with none either.
 */
function wireErrorOf(error: unknown, meta: CallMeta, method: string): WireError {
  const type = errorCodeOf(error);
  if (meta.wire === "mcp" && method === "tools/call" && answersAsToolResult(error)) return { type };
  if (meta.wire === "grpc") return { type, status: grpcStatusName(grpcStatusOfError(error)) };
  if (meta.wire === "webtools") return { type };
  return { type, status: String(jsonRpcCodeOf(error, meta)) };
}

/** An error's code: the SDK's own, a deadline Connect raised (gRPC status 4), else `internal` (masked). */
function errorCodeOf(error: unknown): ErrorCode {
  if (error instanceof McpliteError) return error.code;
  const connect = error instanceof Error && error.name === "ConnectError";
  return connect && (error as { code?: unknown }).code === GrpcStatus.DEADLINE_EXCEEDED
    ? "deadline_exceeded"
    : "internal";
}

/** The gRPC status the binding answers with: a `ConnectError`'s own (a deadline), an SDK error's, else INTERNAL. */
function grpcStatusOfError(error: unknown): number {
  if (error instanceof McpliteError) return grpcStatusOf(error.code);
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && error.name === "ConnectError" && typeof code === "number"
    ? code
    : GrpcStatus.INTERNAL;
}

function jsonRpcCodeOf(error: unknown, meta: CallMeta): number {
  if (!(error instanceof McpliteError)) return -32603;
  if (error instanceof ProtocolError && error.rpcCode !== undefined) return error.rpcCode; // sent as raised
  if (meta.wire !== "mcp") return errorCodeToWire(error.code).code;
  const modern = meta.protocolVersion !== undefined && meta.protocolVersion >= "2026";
  return (modern ? modernErrorToWire : legacyErrorToWire)(error.code).code;
}
