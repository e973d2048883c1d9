// HOT PATH: every call on the direct unary paths (Connect on `fetch`, gRPC on `serveGrpc()`).
/**
 * One unary call on a direct path, whatever carried it: the one request shape ({@link UnaryRequest}),
 * and the one deadline and cancellation object ({@link UnaryCall}): `grpc-timeout` or
 * `connect-timeout-ms`, the server's `bodyTimeoutMs`, the client going away, the listener's shutdown
 * (gRPC over HTTP/2 protocol, Timeouts; Connect protocol, Unary-Request).
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { type BodyCheck, type BodyReader, readBodyBytes } from "../../server/mod.ts";
import type { CallSource } from "./service.ts";
import { abortReason, untilAborted } from "./call-deadline.ts";
import type { BodySource } from "./unary-body.ts";

/**
 * A unary request as both direct paths read it: a fetch `Request` is one as it is (its body read whole
 * when its length is declared); a `node:http2` stream is adapted (node-unary.ts), its body a reader.
 */
export interface UnaryRequest {
  /** The request's URL. */
  readonly url: string;
  /** Every header (gRPC metadata): the HTTP/2 adapter copies them on first read. */
  readonly headers: Headers;
  /** The body: a fetch `Request`'s stream, or a reader of chunks. */
  readonly body: ReadableStream<Uint8Array> | BodyReader | null;
  /** Aborts when the client goes away; made on first read. */
  readonly signal: AbortSignal;
}

/**
 * What the signal of a call that ended aborts with: Connect's `context.abort()` makes a new
 * `AbortError` each time, which costs more than the rest of the call's bookkeeping.
 */
const CALL_ENDED = new DOMException("the call ended", "AbortError");

/**
 * One call's deadline and cancellation, as Connect's handler context keeps them: its signal made only if
 * read, linked to the client and the listener's shutdown; the protocol's deadline, a timer; the body.
 */
export class UnaryCall implements CallSource, BodySource {
  readonly #request: UnaryRequest;
  readonly #bodyTimeoutMs: number;
  readonly #shutdown: AbortSignal | undefined;
  #controller: AbortController | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Listens to the client and the shutdown; made with the signal, for the calls that read it. */
  #onAbort: (() => void) | undefined;
  #reason: ConnectError | undefined;
  #ended = false;

  /**
   * @param request The request.
   * @param timeoutMs The protocol's deadline, if the client set one.
   * @param bodyTimeoutMs The longest the body may take to arrive (the server's `bodyTimeoutMs`); 0: no limit.
   * @param shutdown Aborts when the listener shuts down.
   */
  constructor(request: UnaryRequest, timeoutMs: number | undefined, bodyTimeoutMs: number, shutdown?: AbortSignal) {
    this.#request = request;
    this.#bodyTimeoutMs = bodyTimeoutMs;
    this.#shutdown = shutdown;
    if (timeoutMs !== undefined) {
      // Connect's deadline error (createDeadlineSignal), at the same moment.
      const expire = () => this.cancel(new ConnectError("the operation timed out", Code.DeadlineExceeded));
      if (timeoutMs <= 0) expire();
      else this.#timer = setTimeout(expire, timeoutMs);
    }
  }

  /** The request's URL. */
  get url(): string {
    return this.#request.url;
  }

  /** The request's metadata. */
  get headers(): Headers {
    return this.#request.headers;
  }

  /** Aborts on the deadline, when the client goes away or the listener stops, and when the call ends. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = this.#controller = new AbortController();
      const reason = this.#cancelled();
      if (reason !== undefined) controller.abort(reason);
      else if (!this.#ended) {
        const onAbort = this.#onAbort = () => this.#abortedFrom();
        this.#shutdown?.addEventListener("abort", onAbort);
        const client = this.#request.signal;
        if (client.aborted) onAbort();
        else client.addEventListener("abort", onAbort);
      }
    }
    return this.#controller.signal;
  }

  /** The client went away or the listener stopped: CANCELED, or the shutdown's UNAVAILABLE. */
  #abortedFrom(): void {
    const shutdown = this.#shutdown;
    this.cancel(abortReason(shutdown?.aborted ? shutdown : this.#request.signal));
  }

  /** Why the call was cancelled (a deadline, the client, the listener's shutdown), if it was. */
  #cancelled(): ConnectError | undefined {
    const shutdown = this.#shutdown;
    return this.#reason ?? (shutdown?.aborted ? abortReason(shutdown) : undefined);
  }

  /** Cancels the call: its signal aborts, and what it waits for (`until`) rejects with the reason. */
  cancel(reason: ConnectError): void {
    if (this.#reason !== undefined || this.#ended) return;
    this.#reason = reason;
    this.#release(reason);
  }

  /**
   * Settles with the work, or rejects as soon as the call is cancelled: a call answers
   * DEADLINE_EXCEEDED on time even when the handler ignores its signal. Calls that can end no other
   * way than with their work (no deadline) wait for it alone.
   */
  until<T>(work: T | Promise<T>): T | Promise<T> {
    const cancelled = this.#cancelled();
    if (cancelled !== undefined) return Promise.reject(cancelled);
    if (this.#timer === undefined || !(work instanceof Promise)) return work;
    return untilAborted(work, this.signal);
  }

  /**
   * Reads the body within the server's body reader's limits (a body later than `bodyTimeoutMs` answers
   * DEADLINE_EXCEEDED) and the call's deadline: at once where the runtime already holds it (Bun).
   */
  read(maxBodyBytes: number, check?: BodyCheck): Uint8Array | Promise<Uint8Array> {
    this.throwIfAborted(); // a call cancelled already (a deadline of 0) answers that, its body unread
    const request = this.#request;
    const body = request instanceof Request ? request : request.body as BodyReader;
    const limits = { maxBodyBytes, bodyTimeoutMs: this.#bodyTimeoutMs };
    return this.until(readBodyBytes(body, limits, check));
  }

  /** Throws what the wire answers once the call was cancelled. */
  throwIfAborted(): void {
    const reason = this.#cancelled();
    if (reason !== undefined) throw reason;
  }

  /** Ends the call: its signal aborts (as Connect's does when a call ends) and lets go of what it watched. */
  end(): void {
    if (this.#ended) return;
    this.#release(CALL_ENDED);
    this.#ended = true;
  }

  #release(reason: unknown): void {
    clearTimeout(this.#timer);
    const controller = this.#controller;
    if (controller === undefined) return;
    const onAbort = this.#onAbort;
    if (onAbort !== undefined) {
      this.#shutdown?.removeEventListener("abort", onAbort);
      this.#request.signal.removeEventListener("abort", onAbort);
    }
    if (!controller.signal.aborted) controller.abort(reason);
  }
}
