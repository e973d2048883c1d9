/**
 * An extension method's answer as SSE on MCP-lite's JSON-RPC endpoints (this SDK's MCP-lite extension E5), for a
 * client that accepts `text/event-stream`: opened by the method's first notification (a method may hold its request
 * open, `ctx.holdOpen()`: SEP-3415 "Push", `events/stream`), each one event holding its JSON-RPC message, then the
 * response, as MCP 2025-11-25's Streamable HTTP answers a POST (Transports). One that sends none is answered as JSON.
 *
 * @module
 */
import type { AuthInfo, Registry } from "../../core/mod.ts";
import { holdRequest } from "../../extension/held-request.ts";
import { type Host, sseResponse } from "../../server/mod.ts";
import { errorCodeToWire } from "../../errors/mcplite-codes.ts";
import type { WireStream } from "../../extension/run-on-wire.ts";
import { createSseStream, type SseWriter } from "../../internal/sse.ts";
import { jsonRpcErrorMessage } from "../jsonrpc-error.ts";
import { type JsonRpcId, notificationMessage, resultMessage } from "../jsonrpc.ts";

/** A request's stream to its client, opened when first needed. */
export class LiteExtensionStream implements WireStream {
  readonly #registry: Registry;
  readonly #host: Host;
  readonly #id: JsonRpcId;
  /** Aborts when the client closes the stream, or, once held, when the server drains. */
  #signal: AbortSignal;
  readonly #left = new AbortController();
  #writer: SseWriter | undefined;
  #response: Response | undefined;
  #opened!: (response: Response) => void;
  /** The response, once the stream opened. */
  readonly #opening = new Promise<Response>((resolve) => this.#opened = resolve);
  #finish!: () => void;
  /** Settles when the response was written: the stream then closes. */
  readonly #finished = new Promise<void>((resolve) => this.#finish = resolve);
  #held: { readonly caller: string; readonly id: JsonRpcId } | undefined;

  /**
   * @param registry The server's registry (its runtime holds a held stream until it drains).
   * @param host The request's host (its caller; what exempts a held request from the request budgets).
   * @param id The request's JSON-RPC id, which names the stream.
   * @param signal The request's signal.
   */
  constructor(registry: Registry, host: Host, id: JsonRpcId, signal: AbortSignal) {
    this.#registry = registry;
    this.#host = host;
    this.#id = id;
    this.#signal = AbortSignal.any([signal, this.#left.signal]);
  }

  /** The method's signal: the client's going, and once held the server's drain. */
  get signal(): AbortSignal {
    return this.#signal;
  }

  notify(method: string, params: Readonly<Record<string, unknown>>): void {
    this.#open().event(notificationMessage(method, { ...params }));
  }

  holdOpen(auth: AuthInfo | undefined): { readonly caller: string; readonly id: JsonRpcId } {
    if (this.#held !== undefined) return this.#held;
    const { drained, caller } = holdRequest(this.#registry, this.#host, auth, this.#id, this.#finished);
    this.#signal = AbortSignal.any([this.#signal, drained]);
    return this.#held = { caller, id: this.#id };
  }

  /**
   * The answer: the method's result as JSON where the stream never opened, else the stream, whose last event is the
   * method's response (its result, or its error as a JSON-RPC error).
   *
   * @param answered The method's result.
   * @returns The result (for a JSON answer), or the SSE response.
   */
  answer(answered: Promise<unknown>): Promise<unknown> {
    const ended = answered.then(
      (result) => this.#end(resultMessage(this.#id, result)),
      (error: unknown) =>
        this.#end(jsonRpcErrorMessage(this.#id, error, errorCodeToWire, (e) => this.#registry.runtime.onError?.(e))),
    );
    void ended;
    return Promise.race([answered, this.#opening]).then((first) => this.#response ?? first);
  }

  #end(message: string): void {
    this.#writer?.event(message);
    this.#finish();
  }

  #open(): SseWriter {
    if (this.#writer !== undefined) return this.#writer;
    const body = createSseStream((writer) => {
      this.#writer = writer;
      return this.#finished;
    }, { heartbeatMs: 0, onCancel: () => this.#left.abort(new Error("the client closed the stream")) });
    this.#opened(this.#response = sseResponse(body));
    return this.#writer!;
  }
}
