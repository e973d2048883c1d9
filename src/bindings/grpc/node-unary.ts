// HOT PATH: a gRPC unary call on `serveGrpc()`, without Connect's generic handler (its chain of async
// iterables for the body, the envelopes and the answer, and its interceptors). Built once per listener.
/**
 * The gRPC protocol's unary calls `CallTool` and `GetTools`, answered straight from `node:http2`: a
 * `POST` of `application/grpc` or `application/grpc+proto` (what grpc-js, grpc-go, buf curl and Connect's
 * gRPC transport send), with or without `grpc-timeout`, a gzip or brotli request and a compressed
 * answer, authenticated as Connect's interceptor does it. What is left (gRPC-Web, Connect, JSON, the
 * streaming methods, unknown paths) goes to Connect's Node adapter, which stays the one implementation
 * of those.
 *
 * It answers what Connect's adapter answers, built from Connect's own parts: its compression
 * negotiation and codecs, its timeout parser and handler context, its serialisers, its envelope limits
 * and messages, and its trailers (gRPC over HTTP/2 protocol, "Responses": headers, one length-prefixed
 * message, then `grpc-status`, `grpc-message` and `grpc-status-details-bin` in the trailers).
 *
 * @module
 */
import type { DescMessage, DescMethodUnary, MessageShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { compressionBrotli, compressionGzip } from "@connectrpc/connect-node";
import {
  compressedFlag,
  type Compression,
  compressionNegotiate,
  createMethodSerializationLookup,
  createMethodUrl,
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
import type { Http2ServerRequest, Http2ServerResponse, IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http2";
import { MCPLite } from "../../gen/mcplite/mcplite_pb.ts";
import { scopeKey, toolScopes } from "../../core/scopes.ts";
import type { ServerAuth } from "../../server/auth.ts";
import { type Host, NO_HOST, type ServerCore } from "../../server/binding.ts";
import { type AuthenticatedCall, callAuthenticator } from "./auth-interceptor.ts";
import { toolsList } from "./envelope.ts";
import { toolResponseBinary } from "./tool-response-binary.ts";
import { concatBytes } from "../../internal/concat-bytes.ts";
import { abortReason, type CallSource, createCallTool } from "./service.ts";

/** Answers a request and returns `true`, or returns `false` when Connect's adapter must answer it. */
export type NodeUnary = (request: Http2ServerRequest, response: Http2ServerResponse) => boolean;

/** The options Connect's adapter is built with; the direct path must match them. */
export interface NodeUnaryOptions {
  /** The largest request message, in bytes (the adapter's `readMaxBytes`). */
  readMaxBytes: number;
  /** Aborts every call when the listener shuts down (the adapter's `shutdownSignal`). */
  shutdownSignal: AbortSignal;
  /** The server's authentication, which the adapter's interceptor checks. */
  auth?: ServerAuth;
}

/**
 * Creates the direct gRPC unary path of a server's `serveGrpc()` listener.
 *
 * @param core The server's registry and options.
 * @param options The adapter's limits and shutdown signal.
 * @returns The handler, which declines (returns `false`) what it does not serve.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer } from "../../../mod.ts";
 * import { createNodeUnary } from "./node-unary.ts";
 *
 * const core = createServer({ name: "demo", version: "1.0.0" })["~core"];
 * const direct = createNodeUnary(core, { readMaxBytes: 1024, shutdownSignal: new AbortController().signal });
 * assert.equal(typeof direct, "function"); // serveGrpc() puts it in front of Connect's adapter
 * ```
 */
export function createNodeUnary(core: ServerCore, options: NodeUnaryOptions): NodeUnary {
  const { registry } = core;
  // The same defaults Connect's Node adapter takes (connectNodeAdapter: gzip and brotli).
  const opt = validateUniversalHandlerOptions({
    readMaxBytes: options.readMaxBytes,
    acceptCompression: [compressionGzip, compressionBrotli],
    shutdownSignal: options.shutdownSignal,
  });
  const callTool = createCallTool(core);
  const authenticate = options.auth === undefined ? undefined : callAuthenticator(options.auth);
  const getTools = MCPLite.method.getTools;
  const methods = new Map<string, Unary>([
    [
      createMethodUrl("/", getTools),
      unary(getTools, opt, authenticate, (_input, _call, encode, host) =>
        // Serialised once per change of the tool table (and scope set), shared with Connect's unary path
        // on `fetch`.
        registry.memo("grpc:tools:proto" + scopeKey(toolScopes(registry), host.auth), () =>
          encode(toolsList(registry, host.auth)))),
    ],
    [
      createMethodUrl("/", MCPLite.method.callTool),
      unary(
        MCPLite.method.callTool,
        opt,
        authenticate,
        async (input, call, _encode, host) => toolResponseBinary(await callTool(input, call, host)),
      ),
    ],
  ]);
  return function direct(request, response) {
    if (request.method !== "POST") return false;
    const method = methods.get(request.url);
    if (method === undefined) return false;
    const type = request.headers["content-type"];
    if (type !== "application/grpc" && type !== contentTypeProto && parseContentType(type ?? null)?.binary !== true) {
      return false; // gRPC with JSON, gRPC-Web, Connect, or no gRPC at all
    }
    method(request, response);
    return true;
  };
}

type HandlerOptions = ReturnType<typeof validateUniversalHandlerOptions>;

/** One unary method on the direct path. */
type Unary = (request: Http2ServerRequest, response: Http2ServerResponse) => void;

/** A method's work: the answer's bytes for a parsed request. */
type Run<I extends DescMessage, O extends DescMessage> = (
  input: MessageShape<I>,
  call: CallSource,
  encode: (message: MessageShape<O>) => Uint8Array,
  host: Host,
) => Uint8Array | Promise<Uint8Array>;

/** Authenticates a call from its URL and metadata, as Connect's interceptor does. */
type Authenticate = (url: string, header: Headers) => Promise<AuthenticatedCall>;

/** HTTP/2's NO_ERROR reset code: the stream closed normally (RFC 9113 §7). */
const NO_ERROR = 0;

/**
 * What the signal of a call that ended aborts with: Connect's `context.abort()` makes a new
 * `AbortError` each time, which costs more than the rest of the call's bookkeeping.
 */
const CALL_ENDED = new DOMException("the call ended", "AbortError");

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

// Connect spells its header names capitalised; `node:http2` hands them to us in lower case.
const ENCODING = "grpc-encoding";
const ACCEPT_ENCODING = "grpc-accept-encoding";
const TIMEOUT = "grpc-timeout";

/** The headers of every answer, without and with each response encoding. */
const HEADERS: OutgoingHttpHeaders = { "content-type": contentTypeProto };
const OK_TRAILERS: OutgoingHttpHeaders = { "grpc-status": grpcStatusOk };

/**
 * Wraps a unary method: negotiates compression and the deadline, reads the one request message within
 * the limit, runs the method, and answers its message with `grpc-status: 0`, or the error in the trailers.
 */
function unary<I extends DescMessage, O extends DescMessage>(
  method: DescMethodUnary<I, O>,
  opt: HandlerOptions,
  authenticate: Authenticate | undefined,
  run: Run<I, O>,
): Unary {
  const serialization = createMethodSerializationLookup(method, opt.binaryOptions, opt.jsonOptions, opt);
  const input = serialization.getI(true);
  const output = serialization.getO(true);
  const encode = (message: MessageShape<O>) => output.serialize(message);
  const shutdown = opt.shutdownSignal ?? new AbortController().signal;
  const headersFor = new Map<string, OutgoingHttpHeaders>();
  const headersOf = (compression: Compression | null): OutgoingHttpHeaders => {
    if (compression === null) return HEADERS;
    let headers = headersFor.get(compression.name);
    if (headers === undefined) {
      headersFor.set(compression.name, headers = { ...HEADERS, [ENCODING]: compression.name });
    }
    return headers;
  };

  return async function answer(request, response) {
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === "string" ? value : null;
    };
    const compression = compressionNegotiate(
      opt.acceptCompression,
      header(ENCODING),
      header(ACCEPT_ENCODING),
      headerAcceptEncoding,
    );
    const timeout = parseTimeout(header(TIMEOUT), opt.maxTimeoutMs);
    // The call's headers and signal are made only if read; its deadline, if any, is a timer.
    const call = new NodeCall(request.headers, shutdown, timeout.timeoutMs);
    request.once("close", () => {
      // A client that resets the stream (RST_STREAM) cancels the call (gRPC over HTTP/2 protocol,
      // Errors: CANCEL); a stream that closed normally has already released the call.
      const code = request.stream.rstCode;
      if (code !== undefined && code !== NO_ERROR) {
        call.cancel(new ConnectError(`http/2 stream closed with error code 0x${code.toString(16)}`, Code.Canceled));
      }
    });
    const headers = headersOf(compression.response);
    try {
      // Refused before the body is read, as Connect refuses them.
      if (compression.error !== undefined) throw compression.error;
      if (timeout.error !== undefined) throw timeout.error;
      const message = input.parse(await call.until(readMessage(request, opt.readMaxBytes, compression.request)));
      // Connect runs its interceptors once the message is read: the same order of refusals.
      let bytes: Uint8Array;
      if (authenticate === undefined) bytes = await call.until(run(message, call, encode, NO_HOST));
      else {
        // The URL Connect's Node adapter gives its interceptors.
        const url = new URL(request.url, `http://${request.authority}`).toString();
        const { caller, stepUp } = await call.until(authenticate(url, call.headers));
        const host = { env: NO_HOST.env, waitUntil: NO_HOST.waitUntil, auth: caller };
        try {
          bytes = await call.until(run(message, call, encode, host));
        } catch (error) {
          throw stepUp(error);
        }
      }
      let flags = 0;
      const compress = compression.response;
      if (compress !== null && bytes.byteLength >= opt.compressMinBytes) {
        bytes = await compress.compress(bytes);
        flags = compressedFlag;
      }
      call.throwIfAborted();
      if (!writable(response)) return;
      response.writeHead(200, headers);
      response.addTrailers(OK_TRAILERS);
      response.end(encodeEnvelope(flags, bytes)); // one write: the message goes out with the end of the stream
    } catch (thrown) {
      if (!writable(response)) return;
      response.writeHead(200, headers);
      response.addTrailers(trailersOf(thrown));
      response.end();
    } finally {
      call.end();
    }
  };
}

/**
 * One call's state on the direct path: its headers and its signal (each made only if read, the signal
 * linked to the listener's shutdown), and its deadline, as Connect's handler context keeps them.
 */
class NodeCall implements CallSource {
  #raw: IncomingHttpHeaders;
  #headers: Headers | undefined;
  #shutdown: AbortSignal;
  #controller: AbortController | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #reason: ConnectError | undefined;
  #waiter: ((reason: ConnectError) => void) | undefined;
  #ended = false;

  constructor(headers: IncomingHttpHeaders, shutdown: AbortSignal, timeoutMs: number | undefined) {
    this.#raw = headers;
    this.#shutdown = shutdown;
    if (timeoutMs !== undefined) {
      // Connect's deadline error (createHandlerContext), at the same moment.
      const expire = () => this.cancel(new ConnectError("the operation timed out", Code.DeadlineExceeded));
      if (timeoutMs <= 0) expire();
      else this.#timer = setTimeout(expire, timeoutMs);
    }
  }

  /** The request's metadata, copied into `Headers` on first read. */
  get headers(): Headers {
    return this.#headers ??= webHeaders(this.#raw);
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = this.#controller = new AbortController();
      const reason = this.#cancelled();
      if (reason !== undefined) controller.abort(reason);
      else if (!this.#ended) this.#shutdown.addEventListener("abort", this.#onShutdown);
    }
    return this.#controller.signal;
  }

  #onShutdown = () => this.cancel(abortReason(this.#shutdown));

  /** Why the call was cancelled (a deadline, a reset, the listener's shutdown), if it was. */
  #cancelled(): ConnectError | undefined {
    return this.#reason ?? (this.#shutdown.aborted ? abortReason(this.#shutdown) : undefined);
  }

  /** Cancels the call: its signal aborts, and what it waits for (`until`) rejects with the reason. */
  cancel(reason: ConnectError): void {
    if (this.#reason !== undefined || this.#ended) return;
    this.#reason = reason;
    this.#release(reason);
    this.#waiter?.(reason);
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
    return new Promise<T>((resolve, reject) => {
      this.#waiter = reject;
      work.then(resolve, reject).finally(() => this.#waiter = undefined);
    });
  }

  /** Throws what the wire answers once the call was cancelled. */
  throwIfAborted(): void {
    const reason = this.#cancelled();
    if (reason !== undefined) throw reason;
  }

  /** Ends the call: its signal aborts (as Connect's does when a call ends) and lets go of the shutdown. */
  end(): void {
    if (this.#ended) return;
    this.#release(CALL_ENDED);
    this.#ended = true;
  }

  #release(reason: unknown): void {
    clearTimeout(this.#timer);
    const controller = this.#controller;
    if (controller === undefined) return;
    this.#shutdown.removeEventListener("abort", this.#onShutdown);
    if (!controller.signal.aborted) controller.abort(reason);
  }
}

/**
 * Reads the request's one message: every envelope's declared length within `readMaxBytes` (refused as
 * soon as its prefix arrives), decompressed with the negotiated codec, exactly one envelope in all.
 * Rejects when the stream closes first (the client reset it, the listener cut it).
 */
function readMessage(
  request: Http2ServerRequest,
  readMaxBytes: number,
  compression: Compression | null,
): Promise<Uint8Array> {
  return new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let checked = 0; // bytes whose envelope prefixes were checked
    const fail = (error: unknown) => {
      done();
      reject(error);
    };
    // A stream reset (or cut at shutdown) before the body ended.
    const onClose = () => fail(new ConnectError("the call was cancelled", Code.Canceled));
    const onData = (chunk: Uint8Array) => {
      chunks.push(chunk);
      size += chunk.byteLength;
      try {
        checked = checkPrefixes(chunks, size, checked, readMaxBytes);
      } catch (error) {
        fail(error);
      }
    };
    const onEnd = () => {
      done();
      const body = chunks.length === 1 ? chunks[0] : concatBytes(chunks, size);
      single(body, readMaxBytes, compression).then(resolve, reject);
    };
    const onError = (error: unknown) => fail(ConnectError.from(error, Code.Internal));
    function done() {
      request.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
    }
    request.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  });
}

/**
 * Checks the length prefix of every envelope that has begun since `from` (a message longer than the
 * limit is refused before it arrives, with Connect's message) and returns where the next one starts.
 */
function checkPrefixes(chunks: Uint8Array[], size: number, from: number, readMaxBytes: number): number {
  let at = from;
  while (at + 5 <= size) {
    const length = uint32At(chunks, at + 1);
    if (length > readMaxBytes) {
      throw new ConnectError(
        `message size ${length} is larger than configured readMaxBytes ${readMaxBytes}`,
        Code.ResourceExhausted,
      );
    }
    at += 5 + length;
  }
  return at;
}

/** Reads a big-endian uint32 at `offset` of the concatenated chunks. */
function uint32At(chunks: Uint8Array[], offset: number): number {
  let value = 0;
  for (let i = 0; i < 4; i++) value = value * 256 + byteAt(chunks, offset + i);
  return value;
}

function byteAt(chunks: Uint8Array[], offset: number): number {
  for (const chunk of chunks) {
    if (offset < chunk.byteLength) return chunk[offset];
    offset -= chunk.byteLength;
  }
  return 0;
}

/** The one message of a complete body, decompressed; Connect's errors for anything else. */
async function single(body: Uint8Array, readMaxBytes: number, compression: Compression | null): Promise<Uint8Array> {
  if (body.byteLength === 0) {
    throw new ConnectError("protocol error: missing input message for unary method", Code.Unimplemented);
  }
  if (body.byteLength < 5) throw new ConnectError("protocol error: incomplete envelope", Code.InvalidArgument);
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const flags = view.getUint8(0);
  const end = 5 + view.getUint32(1);
  if (end > body.byteLength) throw new ConnectError("protocol error: incomplete envelope", Code.InvalidArgument);
  if (end < body.byteLength) {
    // Connect reads the next envelope whole before it refuses a second message.
    if (body.byteLength - end < 5 || end + 5 + view.getUint32(end + 1) > body.byteLength) {
      throw new ConnectError("protocol error: incomplete envelope", Code.InvalidArgument);
    }
    throw new ConnectError("protocol error: received extra input message for unary method", Code.Unimplemented);
  }
  const data = body.subarray(5, end);
  if ((flags & compressedFlag) !== compressedFlag) return data;
  if (compression === null) {
    throw new ConnectError("received compressed envelope, but do not know how to decompress", Code.Internal);
  }
  return await compression.decompress(data, readMaxBytes);
}

/** The trailers of a failed call, as Connect writes them (anything but a `ConnectError` is `internal`). */
function trailersOf(thrown: unknown): OutgoingHttpHeaders {
  const error = thrown instanceof ConnectError
    ? thrown
    : new ConnectError("internal error", Code.Internal, undefined, undefined, thrown);
  const trailers: OutgoingHttpHeaders = {};
  setTrailerStatus(new Headers(), error).forEach((value, key) => {
    trailers[key] = value;
  });
  return trailers;
}

/** Whether the stream can still take an answer (not reset by the client, not closed by the listener). */
function writable(response: Http2ServerResponse): boolean {
  const stream = response.stream;
  return stream !== undefined && !stream.destroyed && !stream.closed;
}
