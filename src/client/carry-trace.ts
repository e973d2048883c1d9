/**
 * Carrying the trace context a client's telemetry hands a transport (`RequestContext.traceContext`) to
 * the server: in `params._meta` (MCP SEP-414) and in the HTTP headers or gRPC metadata (W3C Trace Context §3).
 *
 * @module
 */
import type { OutgoingRequest, RequestContext, RequestPeer, Transport } from "./transport.ts";

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

/**
 * Sends one request through the client's telemetry (`ctx.traceRequest`), or as it is without one.
 *
 * @param ctx The request context.
 * @param request What the request is.
 * @param exchange Sends it with the context it is given and reads the reply.
 * @returns What `exchange` gave.
 */
export function sendTraced<T>(
  ctx: RequestContext,
  request: OutgoingRequest,
  exchange: (ctx: RequestContext) => Promise<T>,
): Promise<T> {
  return ctx.traceRequest === undefined ? exchange(ctx) : ctx.traceRequest(request, ctx, exchange);
}

/**
 * Gives the context whose requests go to `peer` whatever the transport below says: a transport that
 * carries HTTP requests over stdio or a WebSocket names the real peer, one that stays in the process
 * names none.
 *
 * @param ctx The request context.
 * @param peer The peer, or `undefined` for none.
 * @returns The context.
 */
function toPeer(ctx: RequestContext, peer: RequestPeer | undefined): RequestContext {
  const trace = ctx.traceRequest;
  if (trace === undefined) return ctx;
  return { ...ctx, traceRequest: (request, c, exchange) => trace({ ...request, peer }, c, exchange) };
}

/**
 * Wraps a transport whose requests are built on a placeholder origin, so that telemetry names the
 * real peer (or none).
 *
 * @param inner The transport.
 * @param peer The peer, or `undefined` for none.
 * @returns The transport.
 */
export function withPeer(inner: Transport, peer: RequestPeer | undefined): Transport {
  const request = inner.request, discover = inner.discover, close = inner.close;
  return {
    get wire() {
      return inner.wire;
    },
    get tracesRequests() {
      return inner.tracesRequests;
    },
    listTools: (ctx) => inner.listTools(toPeer(ctx, peer)),
    callTool: (call, ctx) => inner.callTool(call, toPeer(ctx, peer)),
    ...(request === undefined ? {} : {
      request: (method: string, params: Record<string, unknown>, ctx: RequestContext) =>
        request.call(inner, method, params, toPeer(ctx, peer)),
    }),
    ...(discover === undefined ? {} : { discover: (ctx: RequestContext) => discover.call(inner, toPeer(ctx, peer)) }),
    ...(close === undefined ? {} : { close: () => close.call(inner) }),
  };
}

/**
 * The peer a URL names (OpenTelemetry `server.address`, `server.port`, `network.transport = tcp`):
 * the port is the URL's, else its scheme's default (RFC 9110 §4.2, RFC 6455 §3).
 *
 * @param url The URL.
 * @returns The peer.
 */
export function peerOf(url: string | URL): RequestPeer {
  const parsed = new URL(url);
  const address = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  const secure = parsed.protocol === "https:" || parsed.protocol === "wss:";
  const port = parsed.port === "" ? (secure ? 443 : 80) : Number(parsed.port);
  return { address, port, transport: "tcp" };
}
