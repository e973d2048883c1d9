/**
 * The MCP binding's HTTP answer (MCP 2026-07-28, Streamable HTTP): a method's result becomes JSON,
 * 304, or an SSE stream. A call that talks before its result (progress, logs, a 2025 server→client
 * request) or runs past the keep-alive interval switches to SSE at that moment, so slow calls stay
 * connected; every other call answers as plain JSON.
 *
 * @module
 */
import type { SignalSource } from "../../core/call-context.ts";
import type { CacheHint } from "../../core/resource.ts";
import type { Due, Waiting } from "../../internal/delay-queue.ts";
import { createSseStream, type SseWriter } from "../../internal/sse.ts";
import { matchesEtag } from "../../server/conditional.ts";
import { JSON_HEADERS, JSON_VALUE_INIT, SSE_HEADERS } from "../../server/responses.ts";
import { type JsonRpcId, resultMessage } from "../jsonrpc.ts";
import { errorToWire, type StatusTable } from "../jsonrpc-error.ts";
import { cacheControl, CachedBody } from "./caching.ts";
import { type Envelope, type LegacySession, SESSION_HEADER } from "./envelope.ts";
import {
  type Channel,
  type McpContext,
  type McpMethod,
  type McpRequest,
  type McpResult,
  Subscription,
} from "./request.ts";

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
 * Answers one routed request over HTTP: runs its method with a channel to the client, and turns the
 * result into the response.
 *
 * @param ctx The binding.
 * @param http The HTTP request.
 * @param request The routed request.
 * @param method Its method.
 * @param table The era's status table, for an error raised after the answer became a stream.
 * @returns The response (a promise when the method runs asynchronously).
 */
export function answer(
  ctx: McpContext,
  http: Request,
  request: McpRequest,
  method: McpMethod,
  table: StatusTable,
): Response | Promise<Response> {
  const id = request.rpc.id ?? null;
  // A 2025 call made in a session can be cancelled with notifications/cancelled.
  const tracked = request.session !== null && request.envelope.era === "legacy"
    ? ctx.inFlight.track(request.session, id, http.signal)
    : undefined;
  const channel = new HttpChannel(ctx, tracked ?? http, request.sse);
  let running: McpResult | Promise<McpResult>;
  try {
    running = method(ctx, request, channel);
  } catch (error) {
    tracked?.done();
    throw error;
  }
  if (!(running instanceof Promise)) {
    tracked?.done();
    return channel.respond(request, id, running);
  }
  if (tracked !== undefined) running.finally(tracked.done).catch(noop);
  if (!request.sse) return running.then((result) => channel.respond(request, id, result));
  return channel.race(request, id, running, table);
}

/**
 * The channel of one request over HTTP. Most calls answer at once, as JSON: the stream, its close
 * signal and the combined signal are built only when needed, and the first keep-alive waits on the
 * binding's shared timer.
 */
class HttpChannel implements Channel, Due {
  readonly streaming: boolean;
  readonly persistent = false;
  /** Its wait for the first keep-alive. */
  waiting: Waiting | undefined;
  readonly #ctx: McpContext;
  readonly #source: SignalSource;
  #respond: ((response: Response) => void) | undefined;
  #early: Response | undefined;
  #writer: SseWriter | undefined;
  #end: () => void = noop;
  #settled = false;
  #signal: AbortSignal | undefined;
  #closed: AbortController | undefined;
  #streamClosed = false;
  #cache: CacheHint | undefined;
  #session: string | undefined;

  constructor(ctx: McpContext, source: SignalSource, streaming: boolean) {
    this.#ctx = ctx;
    this.#source = source;
    this.streaming = streaming;
  }

  get signal(): AbortSignal {
    if (!this.streaming) return this.#source.signal;
    if (this.#signal === undefined) {
      this.#closed = new AbortController();
      if (this.#streamClosed) this.#closed.abort(streamClosed());
      this.#signal = AbortSignal.any([this.#source.signal, this.#closed.signal]);
    }
    return this.#signal;
  }

  notify(method: string, params: Record<string, unknown>): void {
    if (this.streaming) this.#upgrade().event(JSON.stringify({ jsonrpc: "2.0", method, params }));
  }

  send(message: string): void {
    if (this.streaming) this.#upgrade().event(message);
  }

  cache(hint: CacheHint): void {
    this.#cache = hint;
  }

  openSession(session: LegacySession): void {
    this.#session = this.#ctx.sessions.open(session);
  }

  /** The first keep-alive fell due before anything else: the answer becomes a stream. */
  due(): void {
    this.#upgrade().comment("keep-alive");
  }

  /** Answers with a method's result: JSON, 304, or a subscription stream (or the stream it talked on). */
  respond(request: McpRequest, id: JsonRpcId, result: McpResult): Response {
    const early = this.#early;
    if (early !== undefined) { // it talked before returning: the stream carries the result last
      this.#finish(this.#message(request, id, result));
      return early;
    }
    if (result instanceof CachedBody) {
      if (matchesEtag(request.headers.get("if-none-match"), result.etag)) return new Response(null, result.notModified);
      return new Response(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result.body}}`, result.ok);
    }
    if (result instanceof Subscription) return this.#listen(result);
    const body = finishResult(result, request.envelope, this.#ctx.serverInfo);
    const cache = this.#cache;
    const session = this.#session;
    // Without a hint or a session, Response.json is the cheapest JSON answer (see JSON_VALUE_INIT).
    // An input-required result is never cached (SEP-2322).
    if ((cache === undefined || body.resultType === "input_required") && session === undefined) {
      return Response.json({ jsonrpc: "2.0", id, result: body }, JSON_VALUE_INIT);
    }
    const headers: Record<string, string> = { ...JSON_HEADERS };
    if (cache !== undefined && body.resultType !== "input_required") headers["cache-control"] = cacheControl(cache);
    if (session !== undefined) headers[SESSION_HEADER] = session;
    return Response.json({ jsonrpc: "2.0", id, result: body }, { headers });
  }

  /**
   * Answers with the running method's result, or with an SSE stream as soon as the method talks or
   * the first keep-alive falls due; the stream then carries the result (or the error) last.
   */
  race(request: McpRequest, id: JsonRpcId, running: Promise<McpResult>, table: StatusTable): Promise<Response> {
    const fail = (error: unknown) => {
      const wire = errorToWire(error, table, this.#ctx.report);
      const payload: Record<string, unknown> = { code: wire.code, message: wire.message };
      if (wire.data !== undefined) payload.data = wire.data;
      this.#finish(JSON.stringify({ jsonrpc: "2.0", id, error: payload }));
    };
    const early = this.#early;
    if (early !== undefined) { // it talked before its first await: already a stream
      running.then((result) => this.#finish(this.#message(request, id, result)), fail);
      return Promise.resolve(early);
    }
    return new Promise<Response>((resolve, reject) => {
      this.#respond = resolve;
      this.waiting = this.#ctx.keepAlive?.add(this);
      running.then((result) => {
        if (this.#claim()) resolve(this.respond(request, id, result));
        else this.#finish(this.#message(request, id, result));
      }, (error) => {
        if (this.#claim()) reject(error);
        else fail(error);
      });
    });
  }

  /** Claims the response for a plain answer; `false` once it is an SSE stream. */
  #claim(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    this.waiting?.cancel();
    return true;
  }

  #message(request: McpRequest, id: JsonRpcId, result: McpResult): string {
    if (result instanceof CachedBody) return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result.body}}`;
    if (result instanceof Subscription) throw new TypeError("a subscription cannot follow other messages");
    return resultMessage(id, finishResult(result, request.envelope, this.#ctx.serverInfo));
  }

  /** Sends the last message on the stream and closes it. */
  #finish(message: string): void {
    this.#writer?.event(message);
    this.#end();
  }

  /** Turns the answer into an SSE stream (once) and returns its writer. */
  #upgrade(): SseWriter {
    if (this.#writer !== undefined) return this.#writer;
    this.#settled = true;
    this.waiting?.cancel();
    const ended = new Promise<void>((done) => this.#end = done);
    const body = createSseStream((writer) => {
      this.#writer = writer;
      return ended;
    }, {
      heartbeatMs: this.#ctx.core.options.heartbeatMs,
      onCancel: () => {
        this.#streamClosed = true;
        this.#closed?.abort(streamClosed());
      },
    });
    const response = new Response(body, { headers: SSE_HEADERS });
    if (this.#respond !== undefined) this.#respond(response);
    else this.#early = response;
    return this.#writer!; // start() ran synchronously inside the ReadableStream constructor
  }

  #listen(subscription: Subscription): Response {
    let close: () => void = noop;
    let stop: () => void = noop;
    const body = createSseStream((writer) => {
      stop = subscription.open(writer);
      return new Promise<void>((done) => close = done);
    }, {
      heartbeatMs: this.#ctx.core.options.heartbeatMs,
      onCancel: () => {
        stop();
        close();
      },
    });
    return new Response(body, { headers: SSE_HEADERS });
  }
}

/**
 * The channel of a request whose answer cannot be a stream (an element of a batch, a carrier without
 * one): nothing reaches the client before the result. Its signal is the source's, read only if asked.
 *
 * @param source What holds the signal (the HTTP request).
 * @param ctx The binding, for `initialize`'s session.
 * @returns The channel, and what the method set on it.
 */
export function quietChannel(source: SignalSource, ctx: McpContext): Channel {
  return {
    get signal() {
      return source.signal;
    },
    streaming: false,
    persistent: false,
    notify: noop,
    send: noop,
    cache: noop,
    openSession: (session) => void ctx.sessions.open(session),
  };
}
