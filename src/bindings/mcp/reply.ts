/**
 * Turns a method's reply into the HTTP response: JSON, 304, or SSE. Work that may talk before its
 * result (`run`) answers as plain JSON when it does not, and switches to an SSE stream at its first
 * notification or question, or once a keep-alive falls due, so slow calls stay connected.
 *
 * @module
 */
import type { SignalSource } from "../../core/call-context.ts";
import type { Due, Waiting } from "../../internal/delay-queue.ts";
import { type JsonRpcId, resultMessage } from "../../internal/jsonrpc.ts";
import { createSseStream, type SseWriter } from "../../internal/sse.ts";
import type { CacheHint } from "../../resource/resource-def.ts";
import { JSON_HEADERS, JSON_VALUE_INIT, SSE_HEADERS } from "../../server/server-core.ts";
import { errorToWire, type StatusTable } from "../jsonrpc-error.ts";
import { cacheControl, matchesEtag } from "./caching.ts";
import type { Envelope } from "./envelope.ts";
import type { Channel, McpContext, McpReply, McpRequest } from "./request.ts";

type RunReply = Extract<McpReply, { kind: "run" }>;

/** Why a call's signal aborts when its client closes the SSE stream. */
function streamClosed(): Error {
  return new Error("the client closed the stream");
}

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
      const result = finishResult(reply.result, request.envelope, ctx.serverInfo);
      if (reply.headers === undefined) return answerResponse(id, result, reply.cache);
      const headers: Record<string, string> = { ...JSON_HEADERS, ...reply.headers };
      if (reply.cache !== undefined) headers["cache-control"] = cacheControl(reply.cache);
      return new Response(resultMessage(id, result), { headers });
    }
    case "cached": {
      const cached = reply.cached;
      if (matchesEtag(request.http.headers.get("if-none-match"), cached.etag)) return new Response(null, cached.notModified);
      return new Response(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${cached.body}}`, cached.ok);
    }
    case "run":
      return runReply(ctx, request, reply, id, table);
    case "listen":
      return listenReply(ctx, reply.open);
  }
}

/**
 * Answers with a JSON result. An input-required result is never cached (SEP-2322). Without a caching
 * hint, `Response.json` is the cheapest way to a JSON response (see `JSON_VALUE_INIT`).
 */
function answerResponse(id: JsonRpcId, result: Record<string, unknown>, cache: CacheHint | undefined): Response {
  const message = { jsonrpc: "2.0", id, result };
  if (cache === undefined || result.resultType === "input_required") return Response.json(message, JSON_VALUE_INIT);
  return Response.json(message, { headers: { ...JSON_HEADERS, "cache-control": cacheControl(cache) } });
}

/**
 * Runs a `run` reply to its end without a stream (inside a batch): notifications are dropped.
 *
 * @param request The request.
 * @param reply The reply.
 * @returns The result.
 */
export function runQuietly(request: McpRequest, reply: RunReply): Promise<Record<string, unknown>> {
  return reply.run(quietChannel(request.http));
}

/**
 * The channel of a call whose answer cannot be a stream: nothing reaches the client before the result.
 * Its signal is the source's, read only if the work asks (runtimes build `Request.signal` on first access).
 */
function quietChannel(source: SignalSource): Channel {
  return {
    get signal() {
      return source.signal;
    },
    streaming: false,
    notify: noop,
    send: noop,
  };
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
  const source: SignalSource = tracked ?? request.http;
  const answer = (result: Record<string, unknown>) =>
    answerResponse(id, finishResult(result, request.envelope, ctx.serverInfo), reply.cache);
  const finish = (result: Record<string, unknown>) =>
    resultMessage(id, finishResult(result, request.envelope, ctx.serverInfo));
  if (!request.sse) {
    const answered = reply.run(quietChannel(source)).then(answer);
    return tracked === undefined ? answered : answered.finally(tracked.done);
  }
  return new Promise<Response>((resolve, reject) => {
    const channel = new UpgradingChannel(source, ctx.core.options.heartbeatMs, resolve);
    channel.waiting = ctx.keepAlive?.add(channel);
    const running = reply.run(channel).then((result) => {
      if (channel.answer()) resolve(answer(result));
      else channel.finish(finish(result));
    }, (error) => {
      if (channel.answer()) return reject(error);
      const wire = errorToWire(error, table, ctx.report);
      const payload: Record<string, unknown> = { code: wire.code, message: wire.message };
      if (wire.data !== undefined) payload.data = wire.data;
      channel.finish(JSON.stringify({ jsonrpc: "2.0", id, error: payload }));
    });
    if (tracked !== undefined) running.finally(tracked.done);
  });
}

/**
 * The channel of a call whose client accepts SSE. Most calls answer at once, as JSON: the stream, its
 * close signal and the combined signal are built only when needed, and the first keep-alive waits on
 * the binding's shared timer.
 */
class UpgradingChannel implements Channel, Due {
  readonly streaming = true;
  /** Its wait for the first keep-alive. */
  waiting: Waiting | undefined;
  readonly #source: SignalSource;
  readonly #heartbeatMs: number;
  readonly #respond: (response: Response) => void;
  #writer: SseWriter | undefined;
  #end: () => void = noop;
  #settled = false;
  #signal: AbortSignal | undefined;
  #closed: AbortController | undefined;
  #streamClosed = false;

  constructor(source: SignalSource, heartbeatMs: number, respond: (response: Response) => void) {
    this.#source = source;
    this.#heartbeatMs = heartbeatMs;
    this.#respond = respond;
  }

  get signal(): AbortSignal {
    if (this.#signal === undefined) {
      this.#closed = new AbortController();
      if (this.#streamClosed) this.#closed.abort(streamClosed());
      this.#signal = AbortSignal.any([this.#source.signal, this.#closed.signal]);
    }
    return this.#signal;
  }

  notify(method: string, params: Record<string, unknown>): void {
    this.upgrade().event(JSON.stringify({ jsonrpc: "2.0", method, params }));
  }

  send(message: string): void {
    this.upgrade().event(message);
  }

  /** The first keep-alive fell due before anything else: the answer becomes a stream. */
  due(): void {
    this.upgrade().comment("keep-alive");
  }

  /** Claims the response for a plain answer; `false` once it is an SSE stream. */
  answer(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    this.waiting?.cancel();
    return true;
  }

  /** Sends the last message on the stream and closes it. */
  finish(message: string): void {
    this.#writer?.event(message);
    this.#end();
  }

  /** Turns the answer into an SSE stream (once) and returns its writer. */
  upgrade(): SseWriter {
    if (this.#writer !== undefined) return this.#writer;
    this.#settled = true;
    this.waiting?.cancel();
    const ended = new Promise<void>((done) => this.#end = done);
    const body = createSseStream((writer) => {
      this.#writer = writer;
      return ended;
    }, {
      heartbeatMs: this.#heartbeatMs,
      onCancel: () => {
        this.#streamClosed = true;
        this.#closed?.abort(streamClosed());
      },
    });
    this.#respond(new Response(body, { headers: SSE_HEADERS }));
    return this.#writer!; // start() ran synchronously inside the ReadableStream constructor
  }
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
