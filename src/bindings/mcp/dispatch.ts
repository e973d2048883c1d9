/**
 * The MCP dispatch: one decoded message in, what goes out handed to its carrier: the notifications a
 * request sends while it runs (progress, logs, 2025 server→client requests), then its response. Every
 * carrier (HTTP, a batch, stdio, a WebSocket) drives this one function; what a carrier does with the
 * messages (JSON or SSE, a line, a frame) is the carrier's business (`carrier.ts`).
 *
 * @module
 */
import type { StatusTable } from "../../errors/jsonrpc-codes.ts";
import { type CacheHint } from "../../core/mod.ts";
import type * as longRunning from "../../jobs/mod.ts";
import {
  errorMessage,
  type JsonRpcId,
  notificationMessage,
  resultMessage,
  serialisedResultMessage,
} from "../jsonrpc.ts";
import { errorToWire, retryHeaders } from "../jsonrpc-error.ts";
import { CachedBody } from "./caching.ts";
import type { Carrier, Exchange, FinishedResult } from "./carrier.ts";
import type { LegacySession } from "./envelope.ts";
import { finishResult } from "./finish-result.ts";
import { cancelScope } from "./cancel-scope.ts";
import {
  type Channel,
  type McpContext,
  type McpMethod,
  type McpRequest,
  type McpResult,
  Subscription,
} from "./mcp-request.ts";
import { type ErrorTarget, route } from "./route.ts";
import { legacyErrorToWire } from "../../errors/mcp-codes.ts";
import { noop } from "../../internal/noop.ts";

/**
 * Dispatches one decoded MCP message: routes it, runs its method with a channel to the client, and
 * hands the carrier the messages that go out, the response last. Nothing throws: a failure becomes
 * the error response. A notification, or a client's answer to a server→client request, gets none.
 *
 * @param ctx The binding.
 * @param message The decoded message.
 * @param carrier What carries it.
 * @returns The request's work while it runs asynchronously (it never rejects); `undefined` once done.
 */
export function dispatch(ctx: McpContext, message: unknown, carrier: Carrier): Promise<void> | undefined {
  const exchange = new McpExchange(ctx, carrier);
  let routed;
  try {
    routed = route(ctx, message, carrier, exchange);
  } catch (error) {
    exchange.fail(error);
    return undefined;
  }
  return routed === undefined ? undefined : exchange.run(routed.request, routed.method);
}

/**
 * One request on its way through the dispatch: where its errors go while it is routed, the channel
 * its method talks to the client through, and what its carrier sees of it.
 */
class McpExchange implements Exchange, Channel, ErrorTarget {
  id: JsonRpcId = null;
  table: StatusTable = legacyErrorToWire;
  request: McpRequest | undefined;
  cacheHint: CacheHint | undefined;
  declare readonly streaming: boolean;
  declare readonly persistent: boolean;
  readonly #ctx: McpContext;
  readonly #carrier: Carrier;
  #running: longRunning.RunningRequest | undefined;

  constructor(ctx: McpContext, carrier: Carrier) {
    this.#ctx = ctx;
    this.#carrier = carrier;
    this.streaming = carrier.streaming;
    this.persistent = carrier.persistent;
  }

  get signal(): AbortSignal {
    return this.#running?.signal ?? this.#carrier.signal;
  }

  /** Runs the routed request's method and hands its result to the carrier. */
  run(request: McpRequest, method: McpMethod): Promise<void> | undefined {
    this.request = request;
    const carrier = this.#carrier;
    const scope = cancelScope(carrier, request.envelope.era, request.session);
    // A persistent carrier's requests abort only through the table (cancelled, or the connection closed).
    const running = scope === undefined
      ? undefined
      : this.#ctx.inFlight.start(scope, this.id, carrier.persistent ? undefined : carrier);
    this.#running = running;
    let result: McpResult | Promise<McpResult>;
    try {
      result = method(this.#ctx, request, this);
    } catch (error) {
      running?.end();
      this.fail(error);
      return undefined;
    }
    const work = result instanceof Promise
      ? result.then((value) => this.#answer(value), (error) => this.fail(error))
      : this.#answer(result);
    if (running !== undefined) {
      if (work === undefined) running.end();
      else running.settles(work);
    }
    return work;
  }

  message(result: FinishedResult): string {
    return result instanceof CachedBody
      ? serialisedResultMessage(this.id, result.body)
      : resultMessage(this.id, result);
  }

  notify(method: string, params: Record<string, unknown>): void {
    if (this.streaming) this.#carrier.send(notificationMessage(method, params));
  }

  holding(): void {
    if (this.streaming) this.#carrier.keepAlive?.();
  }

  send(message: string): void {
    if (this.streaming) this.#carrier.send(message);
  }

  cache(hint: CacheHint): void {
    this.cacheHint = hint;
  }

  openSession(session: LegacySession): void {
    this.#carrier.opened(this.#ctx.sessions.open(session));
  }

  /**
   * Hands the carrier an error response (none once a persistent carrier's client cancelled).
   *
   * @param error What was thrown.
   */
  fail(error: unknown): void {
    if (this.#silenced()) return;
    // The caller's own going away (its signal's reason, thrown back) is no failure of the server's: not reported.
    const gone = this.signal.aborted && error === this.signal.reason;
    const wire = errorToWire(error, this.table, gone ? undefined : this.#ctx.report);
    const message = errorMessage(this.id, wire.code, wire.message, wire.data);
    this.#carrier.fail(this, message, wire.status, retryHeaders(wire), error);
  }

  /** Hands the carrier the result; a subscription's work lasts until it closes. */
  #answer(result: McpResult): Promise<void> | undefined {
    if (this.#silenced()) return undefined;
    try {
      if (result instanceof Subscription) return this.#listen(result);
      this.#carrier.respond(
        this,
        result instanceof CachedBody ? result : finishResult(result, this.request!.envelope, this.#ctx.serverInfo),
      );
    } catch (error) {
      this.fail(error);
    }
    return undefined;
  }

  /**
   * MCP 2025-11-25, Cancellation: no response for a cancelled request. Over HTTP the exchange still
   * ends with its answer (the request awaits one); on a connection nothing is sent.
   */
  #silenced(): boolean {
    return this.#running?.cancelled === true && this.persistent;
  }

  /**
   * Keeps a subscription open on the request's stream (its SSE answer over HTTP, or the connection) until the client
   * closes or cancels it, or it ends itself with its result (sent last, closing an HTTP answer's stream).
   */
  #listen(subscription: Subscription): Promise<void> {
    const carrier = this.#carrier;
    const signal = this.signal;
    return new Promise<void>((done) => {
      let end = noop; // stops it, once
      const stop = subscription.open({
        event(data) {
          if (!signal.aborted) carrier.send(data);
        },
        comment: noop,
        get open() {
          return !signal.aborted;
        },
      }, (result) => {
        end();
        this.#answer(result);
      });
      end = () => {
        end = noop;
        stop();
        done();
      };
      if (signal.aborted) end();
      else signal.addEventListener("abort", () => end(), { once: true });
    });
  }
}
