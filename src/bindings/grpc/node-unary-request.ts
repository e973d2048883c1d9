// HOT PATH: the request of every gRPC unary call on `serveGrpc()`'s direct path.
/**
 * A `node:http2` stream as the direct paths' one request shape (`UnaryRequest`, unary-call.ts): its
 * metadata, its signal, its body collected whole on the stream's own events within the server's body
 * limits, and its answer written on the core stream API. Loaded with the direct path (node-unary.ts).
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerHttp2Stream } from "node:http2";
import { concatBytes } from "../../internal/concat-bytes.ts";
import type { DelayQueue, Waiting } from "../../internal/delay-queue.ts";
import { type BodyCheck, timedOut, tooLarge } from "../../server/mod.ts";
import type { UnaryRequest } from "./unary-call.ts";

/** The server's `bodyTimeoutMs`, and the one timer its deadlines share (made once per listener). */
export interface BodyTimeout {
  /** The delay, in milliseconds. */
  readonly ms: number;
  /** The deadlines of the bodies being collected. */
  readonly queue: DelayQueue;
}

/** HTTP/2's NO_ERROR reset code: the stream closed normally (RFC 9113 §7). */
const NO_ERROR = 0;

/**
 * A `node:http2` stream as the direct paths' {@link UnaryRequest}: its headers copied into `Headers`
 * only when read (as Connect's Node adapter copies them, pseudo-headers left out), its signal made only
 * when read, and its body collected whole on the stream's events ({@link NodeUnaryRequest.collect}).
 */
export class NodeUnaryRequest implements UnaryRequest {
  readonly #stream: ServerHttp2Stream;
  readonly #metadata: IncomingHttpHeaders;
  #headers: Headers | undefined;
  #controller: AbortController | undefined;
  readonly #chunks: Uint8Array[] = [];
  /** How the body ended: whole, or failed; `undefined` while it arrives. */
  #end: true | ConnectError | undefined;
  // What collect() was given, while it collects.
  #done: ((body: Uint8Array) => void) | undefined;
  #fail: ((error: unknown) => void) | undefined;
  #check: BodyCheck | undefined;
  #maxBytes = 0;
  #size = 0;
  #timeout: BodyTimeout | undefined;
  #waiting: Waiting | undefined;
  /** The trailers of the answer, once it is written. */
  #trailers: OutgoingHttpHeaders | undefined;

  constructor(stream: ServerHttp2Stream, metadata: IncomingHttpHeaders) {
    this.#stream = stream;
    this.#metadata = metadata;
    // One listener of each for every stream (no closures per call): the stream carries its request.
    (stream as CarryingStream)[REQUEST] = this;
    stream.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  }

  /**
   * Answers on the core stream as the compatibility layer's `writeHead`, `addTrailers` and `end` do (one
   * `respond` waiting for trailers, the message written with the end of the stream, then the trailers),
   * unless the client reset the stream or the listener closed it.
   */
  respond(headers: OutgoingHttpHeaders, trailers: OutgoingHttpHeaders, frame?: Uint8Array): void {
    const stream = this.#stream;
    if (stream.destroyed || stream.closed) return;
    this.#trailers = trailers;
    stream.respond(headers, { waitForTrailers: true });
    stream.on("wantTrailers", onWantTrailers); // emitted once
    if (frame === undefined) stream.end();
    else stream.end(frame);
  }

  /** The stream's listeners, shared by every stream ({@link REQUEST}). */
  static listeners(): {
    data(this: CarryingStream, chunk: Uint8Array): void;
    end(this: CarryingStream): void;
    error(this: CarryingStream, error: unknown): void;
    close(this: CarryingStream): void;
    wantTrailers(this: CarryingStream): void;
  } {
    return {
      data(chunk) {
        this[REQUEST].#onData(chunk);
      },
      end() {
        this[REQUEST].#finish(true);
      },
      error(error) {
        const request = this[REQUEST];
        if (request.#end === undefined) request.#finish(ConnectError.from(error, Code.Internal));
      },
      // A stream reset (or cut at shutdown) before the body ended.
      close() {
        const request = this[REQUEST];
        if (request.#end === undefined) request.#finish(new ConnectError("the call was cancelled", Code.Canceled));
      },
      wantTrailers() {
        this.sendTrailers(this[REQUEST].#trailers!);
      },
    };
  }

  /** The URL Connect's Node adapter gives its interceptors (the authority as `node:http2`'s request reads it). */
  get url(): string {
    const metadata = this.#metadata;
    return new URL(metadata[":path"]!, `http://${metadata[":authority"] ?? metadata.host}`).toString();
  }

  get headers(): Headers {
    return this.#headers ??= webHeaders(this.#metadata);
  }

  /** Not read as a stream: {@link collect} takes it whole. */
  get body(): null {
    return null;
  }

  /** Aborts when the client resets the stream (RST_STREAM; gRPC over HTTP/2 protocol, Errors: CANCEL). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = this.#controller = new AbortController();
      const stream = this.#stream;
      const onClose = () => {
        const code = stream.rstCode;
        if (code !== undefined && code !== NO_ERROR) {
          controller.abort(
            new ConnectError(`http/2 stream closed with error code 0x${code.toString(16)}`, Code.Canceled),
          );
        }
      };
      if (stream.closed) onClose();
      else stream.once("close", onClose);
    }
    return this.#controller.signal;
  }

  /**
   * Collects the whole body and hands it to `done` in the callback of the stream's end, within the
   * limits the server's body reader keeps (`readAll`, read-body.ts): `check` sees the chunks as they
   * arrive, a body past `maxBodyBytes` is refused, and so is one still arriving `timeout.ms` after
   * this call (none for a body already whole). `fail` gets what the reader would throw: the refusal, or
   * the stream's end without the body (a reset, an error). Either runs once; what still arrives is
   * dropped, as is a body never collected (a call refused before its body is read).
   */
  collect(
    maxBodyBytes: number,
    check: BodyCheck,
    timeout: BodyTimeout | undefined,
    done: (body: Uint8Array) => void,
    fail: (error: unknown) => void,
  ): void {
    this.#maxBytes = maxBodyBytes;
    this.#check = check;
    this.#timeout = timeout;
    this.#done = done;
    this.#fail = fail;
    if (this.#end !== undefined) this.#settle();
    else if (timeout !== undefined) this.#waiting = timeout.queue.add(this);
  }

  /** The body is late (`bodyTimeoutMs`, {@link collect}). */
  due(): void {
    this.refuse(timedOut(this.#timeout!.ms)); // as the server's body reader refuses it: DEADLINE_EXCEEDED
  }

  /** Ends a {@link collect} still waiting for the body with `error` (its `fail`). */
  refuse(error: unknown): void {
    if (this.#done !== undefined) this.#refuse(error);
  }

  #onData(chunk: Uint8Array): void {
    if (this.#done === undefined) return; // not collected (refused before, or after): dropped
    this.#chunks.push(chunk);
    const size = this.#size += chunk.byteLength;
    try {
      this.#check!(this.#chunks, size);
      // What the server's body reader throws past its limit (read-body.ts); the caller answers it.
      if (size > this.#maxBytes) throw tooLarge(this.#maxBytes);
    } catch (error) {
      this.#refuse(error);
    }
  }

  /** Ends a collect() with its body, or with what the stream ended with. */
  #settle(): void {
    const done = this.#done!;
    const fail = this.#fail!;
    this.#done = this.#fail = undefined;
    this.#waiting?.cancel();
    const end = this.#end;
    if (end !== true) return fail(end);
    const chunks = this.#chunks;
    done(chunks.length === 1 ? chunks[0] : concatBytes(chunks, this.#size));
  }

  /** Refuses a body being collected: the rest of it is no longer listened to. */
  #refuse(error: unknown): void {
    const fail = this.#fail!;
    this.#done = this.#fail = undefined;
    this.#waiting?.cancel();
    this.#finish(true);
    fail(error);
  }

  #finish(end: true | ConnectError): void {
    if (this.#end !== undefined) return;
    this.#end = end;
    // The listeners stay (taking each off costs as much as putting it on): the stream keeps flowing,
    // what still arrives is dropped (as the compatibility layer drains it), and an error after the body
    // is heard (an unheard stream error would end the process).
    if (this.#done !== undefined) this.#settle();
  }
}

/** Where a stream carries its {@link NodeUnaryRequest}, for the listeners every stream shares. */
const REQUEST: unique symbol = Symbol("mcplite.grpc.request");
type CarryingStream = ServerHttp2Stream & { [REQUEST]: NodeUnaryRequest };
const {
  data: onData,
  end: onEnd,
  error: onError,
  close: onClose,
  wantTrailers: onWantTrailers,
} = NodeUnaryRequest.listeners();

/** Copies Node's request headers into `Headers`, as Connect's Node adapter does (pseudo-headers left out). */
function webHeaders(headers: IncomingHttpHeaders): Headers {
  const web = new Headers();
  for (const name in headers) {
    if (name.startsWith(":")) continue;
    const value = headers[name];
    if (typeof value === "string") web.append(name, value);
    else if (Array.isArray(value)) { for (const item of value) web.append(name, item); }
  }
  return web;
}
