/**
 * The trace context a proxied call continues on its second hop (W3C Trace Context §3): this server's own
 * span when telemetry middleware (`otel()`) made one, else the caller's `traceparent`, from the request's
 * `_meta` (MCP SEP-414) or its headers, with its `tracestate`. So one trace spans both hops.
 *
 * @module
 */
import type { CallContext } from "../core/call-context.ts";
import { parseTraceparent, TRACE_PARENT } from "../core/trace-context.ts";

/**
 * Reads the trace context to send the remote.
 *
 * @param ctx The call's context.
 * @returns `traceparent` (and `tracestate`), or `undefined` when the call carries none.
 */
export function callerTrace(ctx: CallContext): Record<string, string> | undefined {
  const meta = ctx.meta.requestMeta;
  const fromMeta = typeof meta?.traceparent === "string" ? meta.traceparent : undefined;
  const traceparent = ctx.get(TRACE_PARENT) ?? fromMeta ?? ctx.meta.headers.get("traceparent") ?? undefined;
  if (traceparent === undefined || parseTraceparent(traceparent) === undefined) return undefined;
  const tracestate = (typeof meta?.tracestate === "string" ? meta.tracestate : undefined) ??
    ctx.meta.headers.get("tracestate") ?? undefined;
  return tracestate === undefined ? { traceparent } : { traceparent, tracestate };
}
