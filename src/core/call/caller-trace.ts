/**
 * The trace context a call runs in (W3C Trace Context §3): this server's own span when telemetry middleware
 * (`otel()`) made one, else the caller's `traceparent`, from the request's `_meta` (MCP SEP-414) or its
 * headers, with its `tracestate`. A proxied call continues it on its second hop, so one trace spans both; the
 * server's error log names its trace id.
 *
 * @module
 */
import type { CallContext } from "./call-context.ts";
import { parseTraceparent, TRACE_PARENT } from "./trace-context.ts";

/**
 * The `traceparent` a call runs in, unchecked: this server's span, else the caller's from `_meta`, else its header.
 *
 * @param ctx The call's context.
 * @returns The header's value, or `undefined` when the call carries none.
 */
export function traceparentOf(ctx: CallContext): string | undefined {
  const sent = ctx.meta.requestMeta?.traceparent;
  return ctx.get(TRACE_PARENT) ?? (typeof sent === "string" ? sent : undefined) ??
    ctx.meta.headers.get("traceparent") ?? undefined;
}

/**
 * Reads the call's trace context (the one to send a remote).
 *
 * @param ctx The call's context.
 * @returns `traceparent` (and `tracestate`), or `undefined` when the call carries none.
 */
export function callerTrace(ctx: CallContext): Record<string, string> | undefined {
  const traceparent = traceparentOf(ctx);
  if (traceparent === undefined || parseTraceparent(traceparent) === undefined) return undefined;
  const meta = ctx.meta.requestMeta;
  const tracestate = (typeof meta?.tracestate === "string" ? meta.tracestate : undefined) ??
    ctx.meta.headers.get("tracestate") ?? undefined;
  return tracestate === undefined ? { traceparent } : { traceparent, tracestate };
}
