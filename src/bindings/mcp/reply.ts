/**
 * Turns a method's reply into the HTTP response: JSON, 304, or SSE. Work that may talk before its
 * result (`run`) answers as plain JSON when it does not, and switches to an SSE stream at its first
 * notification or question, or once a keep-alive falls due, so slow calls stay connected.
 *
 * @module
 */
import { type JsonRpcId, resultMessage } from "../../internal/jsonrpc.ts";
import { createSseStream, type SseWriter } from "../../internal/sse.ts";
import { JSON_HEADERS, SSE_HEADERS } from "../../server/server-core.ts";
import { errorToWire, type StatusTable } from "../jsonrpc-error.ts";
import { cacheControl, matchesEtag } from "./caching.ts";
import type { Envelope } from "./envelope.ts";
import type { Channel, McpContext, McpReply, McpRequest } from "./request.ts";

type RunReply = Extract<McpReply, { kind: "run" }>;

function noop(): void {}

/**
 * Adds what every 2026-07-28 result carries: `resultType` (kept when the method set one) and the
 * server's identity in `_meta`. 2025-era results pass unchanged.
 *
 * @param result The method's result.
 * @param envelope The request's envelope.
 * @param serverInfo The `_meta` entry naming the server.
 * @returns The result to send.
 */
export function finishResult(
  result: Record<string, unknown>,
  envelope: Envelope,
  serverInfo: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  if (envelope.era !== "modern") return result;
  const meta = result._meta as Record<string, unknown> | undefined;
  return {
    ...result,
    resultType: result.resultType ?? "complete",
    _meta: meta === undefined ? serverInfo : { ...meta, ...serverInfo },
  };
}

/**
 * Answers a request with its method's reply.
 *
 * @param ctx The binding.
 * @param request The request.
 * @param reply The reply.
 * @param table The era's status table, for errors raised after an SSE stream opened.
 * @returns The response (a promise when the reply runs first).
 */
export function respond(
  ctx: McpContext,
  request: McpRequest,
  reply: McpReply,
  table: StatusTable,
): Response | Promise<Response> {
  const id = request.rpc.id ?? null;
  switch (reply.kind) {
    case "result": {
      const body = resultMessage(id, finishResult(reply.result, request.envelope, ctx.serverInfo));
      if (reply.cache === undefined && reply.headers === undefined) return new Response(body, { headers: JSON_HEADERS });
      const headers: Record<string, string> = { ...JSON_HEADERS, ...reply.headers };
      if (reply.cache !== undefined) headers["cache-control"] = cacheControl(reply.cache);
      return new Response(body, { headers });
    }
    case "cached": {
      const { body, etag, cacheControl } = reply.cached;
      if (matchesEtag(request.http.headers.get("if-none-match"), etag)) {
        return new Response(null, { status: 304, headers: { etag, "cache-control": cacheControl } });
      }
      return new Response(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${body}}`, {
        headers: { ...JSON_HEADERS, etag, "cache-control": cacheControl },
      });
    }
    case "run":
      return runReply(ctx, request, reply, id, table);
    case "listen":
      return listenReply(ctx, reply.open);
  }
}

/**
 * Runs a `run` reply to its end without a stream (inside a batch): notifications are dropped.
 *
 * @param request The request.
 * @param reply The reply.
 * @returns The result.
 */
export function runQuietly(request: McpRequest, reply: RunReply): Promise<Record<string, unknown>> {
  return reply.run({ signal: request.http.signal, streaming: false, notify: noop, send: noop });
}

function runReply(
  ctx: McpContext,
  request: McpRequest,
  reply: RunReply,
  id: JsonRpcId,
  table: StatusTable,
): Promise<Response> {
  const tracked = request.session !== null && request.envelope.era === "legacy" && request.rpc.id !== undefined
    ? ctx.inFlight.track(request.session, id, request.http.signal)
    : undefined;
  const signal = tracked?.signal ?? request.http.signal;
  const cached = reply.cache === undefined
    ? JSON_HEADERS
    : { ...JSON_HEADERS, "cache-control": cacheControl(reply.cache) };
  // An input-required result is never cached (SEP-2322).
  const headersFor = (result: Record<string, unknown>) =>
    result.resultType === "input_required" ? JSON_HEADERS : cached;
  const finish = (result: Record<string, unknown>) =>
    resultMessage(id, finishResult(result, request.envelope, ctx.serverInfo));
  if (!request.sse) {
    const quiet: Channel = { signal, streaming: false, notify: noop, send: noop };
    const answered = reply.run(quiet).then((result) => new Response(finish(result), { headers: headersFor(result) }));
    return tracked === undefined ? answered : answered.finally(tracked.done);
  }
  return new Promise<Response>((resolve, reject) => {
    const cancel = new AbortController();
    const streamSignal = AbortSignal.any([signal, cancel.signal]);
    const heartbeatMs = ctx.core.options.heartbeatMs;
    let writer: SseWriter | undefined;
    let settled = false;
    let end: () => void = noop;
    const upgrade = (): SseWriter => {
      if (writer !== undefined) return writer;
      settled = true;
      clearTimeout(timer);
      const ended = new Promise<void>((done) => end = done);
      const body = createSseStream((w) => {
        writer = w;
        return ended;
      }, { heartbeatMs, onCancel: () => cancel.abort(new Error("the client closed the stream")) });
      resolve(new Response(body, { headers: SSE_HEADERS }));
      return writer!; // start() ran synchronously inside the ReadableStream constructor
    };
    const channel: Channel = {
      signal: streamSignal,
      streaming: true,
      notify: (method, params) => upgrade().event(JSON.stringify({ jsonrpc: "2.0", method, params })),
      send: (message) => upgrade().event(message),
    };
    const timer = heartbeatMs > 0 ? setTimeout(() => upgrade().comment("keep-alive"), heartbeatMs) : undefined;
    reply.run(channel).then((result) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve(new Response(finish(result), { headers: headersFor(result) }));
        return;
      }
      writer?.event(finish(result));
      end();
    }, (error) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        reject(error);
        return;
      }
      const wire = errorToWire(error, table, ctx.report);
      const payload: Record<string, unknown> = { code: wire.code, message: wire.message };
      if (wire.data !== undefined) payload.data = wire.data;
      writer?.event(JSON.stringify({ jsonrpc: "2.0", id, error: payload }));
      end();
    }).finally(() => tracked?.done());
  });
}

function listenReply(ctx: McpContext, open: (writer: SseWriter) => () => void): Response {
  let close: () => void = noop;
  let stop: () => void = noop;
  const body = createSseStream((writer) => {
    stop = open(writer);
    return new Promise<void>((done) => close = done);
  }, {
    heartbeatMs: ctx.core.options.heartbeatMs,
    onCancel: () => {
      stop();
      close();
    },
  });
  return new Response(body, { headers: SSE_HEADERS });
}
