/**
 * The MCP binding's HTTP carrier (MCP 2026-07-28, Streamable HTTP): one POST, driven through the MCP
 * dispatch, answered with JSON, 304, 202 or an SSE stream. A call that talks before its result
 * (progress, logs, a 2025 server→client request) or runs past the keep-alive interval switches to SSE
 * at that moment, so slow calls stay connected; every other call answers as plain JSON.
 *
 * @module
 */
import type { Due, Waiting } from "../../internal/delay-queue.ts";
import { createSseStream, type SseWriter } from "../../internal/sse.ts";
import {
  answers,
  answersRefusal,
  type Host,
  JSON_HEADERS,
  JSON_VALUE_INIT,
  matchesEtag,
  sseResponse,
} from "../../server/mod.ts";
import { resultEnvelope, serialisedResultMessage } from "../jsonrpc.ts";
import { wireErrorResponse } from "../jsonrpc-error.ts";
import { cacheControl, CachedBody } from "./caching.ts";
import type { Carrier, Exchange, FinishedResult } from "./carrier.ts";
import { dispatch } from "./dispatch.ts";
import { SESSION_HEADER } from "./envelope.ts";
import type { McpContext } from "./mcp-request.ts";
import { noop } from "../../internal/noop.ts";

/** Why a call's signal aborts when its client closes the SSE stream. */
function streamClosed(): Error {
  return new Error("the client closed the stream");
}

/**
 * Answers one MCP message POSTed over HTTP.
 *
 * @param ctx The binding.
 * @param http The HTTP request.
 * @param host What the platform handed `fetch` besides the request.
 * @param message The decoded body.
 * @param sse Whether the client accepts an SSE answer.
 * @returns The response (a promise while the method runs).
 */
export function respondHttp(
  ctx: McpContext,
  http: Request,
  host: Host,
  message: unknown,
  sse: boolean,
): Response | Promise<Response> {
  const carrier = new HttpCarrier(ctx, http, host, sse);
  return carrier.answer(dispatch(ctx, message, carrier));
}

/**
 * The carrier of one HTTP request. Most calls answer at once, as JSON: the stream, its close signal
 * and the combined signal are built only when needed, and the first keep-alive waits on the binding's
 * shared timer.
 */
class HttpCarrier implements Carrier, Due {
  readonly streaming: boolean;
  readonly persistent = false;
  readonly headers: Headers;
  readonly host: Host;
  /** Its wait for the first keep-alive. */
  waiting: Waiting | undefined;
  /** Its wait for the first keep-alive of a held call. */
  #held: Waiting | undefined;
  readonly #ctx: McpContext;
  readonly #http: Request;
  /** The response, once known before anyone waits for it. */
  #response: Response | undefined;
  #resolve: ((response: Response) => void) | undefined;
  #writer: SseWriter | undefined;
  #end: () => void = noop;
  #signal: AbortSignal | undefined;
  #closed: AbortController | undefined;
  #streamClosed = false;
  #session: string | undefined;

  constructor(ctx: McpContext, http: Request, host: Host, streaming: boolean) {
    this.#ctx = ctx;
    this.#http = http;
    this.host = host;
    this.streaming = streaming;
    this.headers = http.headers;
  }

  /** Read when asked: a 2026-07-28 request has no session to look for. */
  get session(): string | null {
    return this.headers.get(SESSION_HEADER);
  }

  get signal(): AbortSignal {
    if (!this.streaming) return this.#http.signal;
    if (this.#signal === undefined) {
      this.#closed = new AbortController();
      if (this.#streamClosed) this.#closed.abort(streamClosed());
      this.#signal = AbortSignal.any([this.#http.signal, this.#closed.signal]);
    }
    return this.#signal;
  }

  /**
   * Returns the response: the one already given, 202 when the message needed none, or a promise of
   * it while the method runs (resolved with the SSE stream if the method talks or the first
   * keep-alive falls due first).
   *
   * @param running The dispatch's work, while it runs.
   * @returns The response.
   */
  answer(running: Promise<void> | undefined): Response | Promise<Response> {
    if (this.#response !== undefined) return this.#response;
    if (running === undefined) return new Response(null, { status: 202 });
    return new Promise<Response>((resolve) => {
      this.#resolve = resolve;
      if (this.streaming) this.waiting = this.#ctx.keepAlive?.add(this);
    });
  }

  send(message: string): void {
    this.#upgrade().event(message);
  }

  respond(exchange: Exchange, result: FinishedResult): void {
    if (this.#writer !== undefined) return this.#finish(exchange.message(result)); // it talked: the result goes last
    if (result instanceof CachedBody) {
      return this.#settle(
        matchesEtag(this.headers.get("if-none-match"), result.etag)
          ? new Response(null, result.notModified)
          : answers.text(serialisedResultMessage(exchange.id, result.body), result.ok),
      );
    }
    const cache = exchange.cacheHint;
    const session = this.#session;
    // Without a hint or a session, Response.json is the cheapest JSON answer (see JSON_VALUE_INIT).
    // An input-required result is never cached (SEP-2322).
    if ((cache === undefined || result.resultType === "input_required") && session === undefined) {
      return this.#settle(answers.json(resultEnvelope(exchange.id, result), JSON_VALUE_INIT));
    }
    const headers: Record<string, string> = { ...JSON_HEADERS };
    if (cache !== undefined && result.resultType !== "input_required") headers["cache-control"] = cacheControl(cache);
    if (session !== undefined) headers[SESSION_HEADER] = session;
    this.#settle(answers.json(resultEnvelope(exchange.id, result), { headers }));
  }

  fail(_exchange: Exchange, message: string, status: number, headers?: Record<string, string>, error?: unknown): void {
    if (this.#writer !== undefined) this.#finish(message); // already a stream: the error goes last
    else this.#settle(answersRefusal(wireErrorResponse(message, status, headers), error));
  }

  opened(session: string): void {
    this.#session = session;
  }

  /** The first keep-alive fell due before anything else: the answer becomes a stream. */
  due(): void {
    this.#upgrade().comment("keep-alive");
  }

  keepAlive(): void {
    if (this.#writer === undefined && this.#held === undefined) this.#held = this.#ctx.heldKeepAlive?.add(this);
  }

  /** Gives the response (once): to whoever waits for it, or for {@link answer} to return. */
  #settle(response: Response): void {
    this.waiting?.cancel();
    this.#held?.cancel();
    if (this.#resolve !== undefined) this.#resolve(response);
    else this.#response = response;
  }

  /** Sends the last message on the stream and closes it. */
  #finish(message: string): void {
    this.#writer!.event(message);
    this.#end();
  }

  /** Turns the answer into an SSE stream (once) and returns its writer. */
  #upgrade(): SseWriter {
    if (this.#writer !== undefined) return this.#writer;
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
    this.#settle(sseResponse(body));
    return this.#writer!; // start() ran synchronously inside the ReadableStream constructor
  }
}
