/**
 * Carrying the trace context a client's telemetry hands a transport (`RequestContext.traceContext`) to
 * the server: in `params._meta` (MCP SEP-414) and in the HTTP headers or gRPC metadata (W3C Trace Context §3).
 *
 * @module
 */
import type { RequestContext } from "./transport.ts";

/**
 * Sets the trace context fields as headers (or gRPC metadata).
 *
 * @param headers The request's headers.
 * @param ctx The request context.
 * @returns The same headers.
 */
export function withTraceHeaders(headers: Headers, ctx: RequestContext): Headers {
  const fields = ctx.traceContext;
  if (fields !== undefined) { for (const key in fields) headers.set(key, fields[key]); }
  return headers;
}

/**
 * Adds the trace context fields to a request's params, in `_meta`, keeping what `_meta` holds.
 *
 * @param params The params.
 * @param ctx The request context.
 * @returns The params, or a copy with the fields in `_meta`.
 */
export function withTraceMeta(params: Record<string, unknown>, ctx: RequestContext): Record<string, unknown> {
  const fields = ctx.traceContext;
  if (fields === undefined) return params;
  return { ...params, _meta: { ...(params._meta as Record<string, unknown> | undefined), ...fields } };
}
