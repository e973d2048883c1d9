// HOT PATH: a gRPC unary call on `serveGrpc()`, without Connect's generic handler. Built once per listener.
/**
 * The gRPC protocol's unary `CallTool` and `GetTools` straight from `node:http2`: a `POST` of
 * `application/grpc(+proto)` (grpc-js, grpc-go, buf curl, Connect's gRPC transport), any `grpc-timeout`,
 * gzip or brotli, authenticated as Connect's interceptor does it. The rest (gRPC-Web, Connect, JSON,
 * streams) goes to Connect's Node adapter. The stream is adapted to the direct paths' one request shape
 * (unary-call.ts); the answer is Connect's adapter's, byte for byte (gRPC over HTTP/2 protocol,
 * "Responses": headers, one length-prefixed message, then the status in the trailers).
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { compressionBrotli, compressionGzip } from "@connectrpc/connect-node";
import {
  compressedFlag,
  compressionNegotiate,
  encodeEnvelope,
  validateUniversalHandlerOptions,
} from "@connectrpc/connect/protocol";
import {
  contentTypeProto,
  grpcStatusOk,
  headerAcceptEncoding,
  parseContentType,
  parseTimeout,
  setTrailerStatus,
} from "@connectrpc/connect/protocol-grpc";
import { Buffer } from "node:buffer";
import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerHttp2Stream } from "node:http2";
import { type BodyCheck, type Gate, NO_HOST, type ServerCore } from "../../server/mod.ts";
import { bodyDeadline, timedOut, tooLarge } from "../../server/read-body.ts";
import { concatBytes } from "../../internal/concat-bytes.ts";
import type { Waiting } from "../../internal/delay-queue.ts";
import { callAuthenticator } from "./auth-interceptor.ts";
import { abortReason } from "./call-deadline.ts";
import { createUnaryMethods, type UnaryAnswer, type UnaryMethod } from "./unary.ts";
import { ENVELOPE_ROOM, toolResponseFrame } from "./tool-response-binary.ts";
import { envelopeCheck, envelopesMaxBytes, openEnvelope, refusedEnvelopes } from "./unary-body.ts";
import { UnaryCall, type UnaryRequest } from "./unary-call.ts";

/**
 * Answers a stream (its request headers as the server's `stream` event gives them) and returns `true`,
 * or returns `false` when Connect's adapter must answer it.
 */
export type NodeUnary = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => boolean;

/** The options Connect's adapter is built with; the direct path must match them. */
export interface NodeUnaryOptions {
  /** The largest request message, in bytes (the adapter's `readMaxBytes`). */
  readMaxBytes: number;
  /** Aborts every call when the listener shuts down (the adapter's `shutdownSignal`). */
  shutdownSignal: AbortSignal;
  /** The server's gate, when it authenticates (as the adapter's interceptor does). */
  gate?: Gate;
  /**
   * Admits a call the direct path would serve (the listener's Host/Origin guard and budgets), or
   * returns `false` to leave it to the adapter's listener, which refuses it.
   */
  admit?: (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => boolean;
}

/**
 * Creates the direct gRPC unary path of a server's `serveGrpc()` listener. A body still arriving after
 * the server's `bodyTimeoutMs` answers `DEADLINE_EXCEEDED`.
 *
 * @param core The server's registry and options.
 * @param options The adapter's limits and shutdown signal.
 * @returns The handler, which declines (returns `false`) what it does not serve.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer } from "../../../mod.ts";
 * import { attachListener } from "../../binding.ts";
 * import { createNodeUnary } from "./node-unary.ts";
 *
 * const { core } = attachListener(createServer({ name: "demo", version: "1.0.0" }));
 * const direct = createNodeUnary(core, { readMaxBytes: 1024, shutdownSignal: new AbortController().signal });
 * assert.equal(typeof direct, "function"); // serveGrpc() puts it in front of Connect's adapter
 * ```
 */
export function createNodeUnary(core: ServerCore, options: NodeUnaryOptions): NodeUnary {
  // The same defaults Connect's Node adapter takes (connectNodeAdapter: gzip and brotli).
  const opt = validateUniversalHandlerOptions({
    readMaxBytes: options.readMaxBytes,
    acceptCompression: [compressionGzip, compressionBrotli],
    shutdownSignal: options.shutdownSignal,
  });
  // CallTool's answers encoded as whole frames, in a Buffer (a `node:stream` write wraps anything else in one).
  const methods = createUnaryMethods(core, opt, (response) => toolResponseFrame(response, newBuffer));
  const authenticate = options.gate === undefined ? undefined : callAuthenticator(options.gate);
  const { bodyTimeoutMs } = core.options;
  const shutdown = options.shutdownSignal;
  // The headers of an answer without and with each response encoding.
  const headersOf = new Map<string | undefined, OutgoingHttpHeaders>([[undefined, HEADERS]]);
  for (const { name } of opt.acceptCompression) headersOf.set(name, { ...HEADERS, [ENCODING]: name });

  // What a client that sends no `grpc-encoding` accepts: negotiated once per `grpc-accept-encoding`
  // spelling (grpc-js sends the same one on every call), for a few spellings at most.
  const negotiated = new Map<string | undefined, ReturnType<typeof compressionNegotiate>>();
  const negotiate = (requested: string | undefined, accepted: string | undefined) => {
    if (requested !== undefined) {
      return compressionNegotiate(opt.acceptCompression, requested, accepted ?? null, headerAcceptEncoding);
    }
    let found = negotiated.get(accepted);
    if (found === undefined) {
      found = compressionNegotiate(opt.acceptCompression, null, accepted ?? null, headerAcceptEncoding);
      if (negotiated.size < 8) negotiated.set(accepted, found);
    }
    return found;
  };

  /**
   * Negotiates compression and the deadline, reads the one request message within the limits, runs the
   * method, and answers its message with `grpc-status: 0`, or the error in the trailers. Once the body
   * is read, a method that answers at once (a synchronous tool) is answered in the same callback.
   */
  function answer(method: UnaryMethod, stream: ServerHttp2Stream, metadata: IncomingHttpHeaders): void {
    const compression = negotiate(text(metadata[ENCODING]), text(metadata[ACCEPT_ENCODING]));
    const deadline = text(metadata[TIMEOUT]);
    const timeout = deadline === undefined ? NO_TIMEOUT : parseTimeout(deadline, opt.maxTimeoutMs);
    const request = new NodeUnaryRequest(stream, metadata);
    const call = new UnaryCall(request, timeout.timeoutMs, bodyTimeoutMs, shutdown);
    const headers = headersOf.get(compression.response?.name)!;
    const failed = (thrown: unknown) => {
      request.respond(headers, trailersOf(thrown));
      call.end();
    };
    const sent = (frame: Uint8Array) => {
      call.throwIfAborted();
      request.respond(headers, OK_TRAILERS, frame);
      call.end();
    };
    const written = (answer: UnaryAnswer) => {
      // A framed answer is the gRPC Length-Prefixed-Message itself (gRPC over HTTP/2 protocol); any
      // other is framed here.
      const framed = method.framed === true;
      const bytes = answer as Uint8Array;
      const compress = compression.response;
      const size = framed ? bytes.byteLength - ENVELOPE_ROOM : bytes.byteLength;
      if (compress === null || size < opt.compressMinBytes) return sent(framed ? bytes : encodeEnvelope(0, bytes));
      const message = framed ? bytes.subarray(ENVELOPE_ROOM) : bytes;
      return compress.compress(message).then((compressed) => sent(encodeEnvelope(compressedFlag, compressed)));
    };
    // From the message on, one callback: a method that answers at once is written in it.
    const run = (read: Uint8Array) => {
      const answered = method.invoke(read, call, true, NO_HOST, authenticate);
      return answered instanceof Promise ? answered.then(written) : written(answered);
    };
    const opened = (message: Uint8Array | Promise<Uint8Array>) => {
      const done = message instanceof Promise ? message.then(run) : run(message);
      if (done instanceof Promise) done.catch(failed);
    };
    try {
      // Refused before the body is read, as Connect refuses them.
      if (compression.error !== undefined) throw compression.error;
      if (timeout.error !== undefined) throw timeout.error;
      // The body is collected on the stream's events and the call runs in the callback of its end, with
      // the limits and errors of the call's reader (`readEnvelopedMessage(call, …)`, `UnaryCall.read`),
      // and no promise between the body and the answer (on Bun an answer written a microtask later
      // costs more).
      call.throwIfAborted();
      let onAbort: (() => void) | undefined;
      if (timeout.timeoutMs !== undefined) {
        // The client's deadline races the body, as `UnaryCall.until` races the read (`untilAborted`).
        const signal = call.signal;
        if (signal.aborted) throw abortReason(signal);
        onAbort = () => request.refuse(abortReason(signal));
        signal.addEventListener("abort", onAbort, { once: true });
      }
      const settled = () => {
        if (onAbort !== undefined) call.signal.removeEventListener("abort", onAbort);
      };
      request.collect(envelopesMaxBytes(opt.readMaxBytes), envelopeCheck(opt.readMaxBytes), bodyTimeoutMs, (body) => {
        settled();
        try {
          opened(openEnvelope(body, opt.readMaxBytes, compression.request));
        } catch (thrown) {
          failed(thrown);
        }
      }, (error) => {
        settled();
        failed(refusedEnvelopes(error));
      });
    } catch (thrown) {
      failed(thrown);
    }
  }

  const admit = options.admit;
  return function direct(stream, headers) {
    if (headers[":method"] !== "POST") return false;
    const method = methods.get(headers[":path"]!);
    if (method === undefined) return false;
    const type = headers["content-type"];
    if (type !== "application/grpc" && type !== contentTypeProto && parseContentType(type ?? null)?.binary !== true) {
      return false; // gRPC with JSON, gRPC-Web, Connect, or no gRPC at all
    }
    if (admit !== undefined && !admit(stream, headers)) return false;
    answer(method, stream, headers);
    return true;
  };
}

// Connect spells its header names capitalised; `node:http2` hands them to us in lower case.
const ENCODING = "grpc-encoding";
const ACCEPT_ENCODING = "grpc-accept-encoding";
const TIMEOUT = "grpc-timeout";

/** The headers of every answer (without a response encoding), and the trailers of a successful one. */
const HEADERS: OutgoingHttpHeaders = { ":status": 200, "content-type": contentTypeProto };
const OK_TRAILERS: OutgoingHttpHeaders = { "grpc-status": grpcStatusOk };

/** What `parseTimeout` reads from a call without `grpc-timeout`. */
const NO_TIMEOUT: ReturnType<typeof parseTimeout> = {};

/** A header's value when it is sent once. */
function text(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A zero-filled `Buffer` (`toolResponseFrame`'s allocator). */
function newBuffer(size: number): Uint8Array {
  return Buffer.alloc(size);
}

/**
 * Connect percent-encodes `grpc-message` with `encodeURIComponent` (valid gRPC), but grpc-js decodes
 * it with `decodeURI`, which leaves `%3A` and friends: "Tool not found%3A x". Re-encoding with
 * `encodeURI` reads right in grpc-js and decodes the same everywhere else.
 *
 * @param message The `grpc-message` trailer as Connect writes it.
 * @returns The same message as grpc-js reads it right.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readableGrpcMessage } from "./node-unary.ts";
 * assert.equal(readableGrpcMessage("Tool not found%3A x"), "Tool%20not%20found:%20x");
 * ```
 */
export function readableGrpcMessage(message: string): string {
  try {
    return encodeURI(decodeURIComponent(message));
  } catch {
    return message; // not Connect's encoding: leave it as it is
  }
}

/** HTTP/2's NO_ERROR reset code: the stream closed normally (RFC 9113 §7). */
const NO_ERROR = 0;

/**
 * A `node:http2` stream as the direct paths' {@link UnaryRequest}: its headers copied into `Headers`
 * only when read (as Connect's Node adapter copies them, pseudo-headers left out), its signal made only
 * when read, and its body collected whole on the stream's events ({@link NodeUnaryRequest.collect}).
 */
class NodeUnaryRequest implements UnaryRequest {
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
  #timeoutMs = 0;
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
   * arrive, a body past `maxBodyBytes` is refused, and so is one still arriving `bodyTimeoutMs` after
   * this call (none for a body already whole). `fail` gets what the reader would throw: the refusal, or
   * the stream's end without the body (a reset, an error). Either runs once; what still arrives is
   * dropped, as is a body never collected (a call refused before its body is read).
   */
  collect(
    maxBodyBytes: number,
    check: BodyCheck,
    bodyTimeoutMs: number,
    done: (body: Uint8Array) => void,
    fail: (error: unknown) => void,
  ): void {
    this.#maxBytes = maxBodyBytes;
    this.#check = check;
    this.#timeoutMs = bodyTimeoutMs;
    this.#done = done;
    this.#fail = fail;
    if (this.#end !== undefined) this.#settle();
    else if (bodyTimeoutMs > 0 && this.#done !== undefined) this.#waiting = bodyDeadline(bodyTimeoutMs, this);
  }

  /** The body is late (`bodyTimeoutMs`, {@link collect}). */
  due(): void {
    this.refuse(timedOut(this.#timeoutMs));
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

/** The trailers of a failed call, as Connect writes them (anything but a `ConnectError` is `internal`). */
function trailersOf(thrown: unknown): OutgoingHttpHeaders {
  const error = thrown instanceof ConnectError
    ? thrown
    : new ConnectError("internal error", Code.Internal, undefined, undefined, thrown);
  const trailers: OutgoingHttpHeaders = {};
  setTrailerStatus(new Headers(), error).forEach((value, key) => {
    trailers[key] = key === "grpc-message" ? readableGrpcMessage(value) : value;
  });
  return trailers;
}
