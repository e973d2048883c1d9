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
import { type Gate, NO_HOST, type ServerCore } from "../../server/mod.ts";
import { DelayQueue } from "../../internal/delay-queue.ts";
import { callAuthenticator } from "./auth-interceptor.ts";
import { abortReason } from "./call-deadline.ts";
import { createUnaryMethods, type UnaryAnswer, type UnaryMethod } from "./unary.ts";
import { ENVELOPE_ROOM, toolResponseFrame } from "./tool-response-binary.ts";
import { envelopeCheck, envelopesMaxBytes, openEnvelope, refusedEnvelopes } from "./unary-body.ts";
import { UnaryCall } from "./unary-call.ts";
import { type BodyTimeout, NodeUnaryRequest } from "./node-unary-request.ts";

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
  // One timer for the bodies' deadlines (as the server's body reader shares one per delay).
  const bodyTimeout: BodyTimeout | undefined = bodyTimeoutMs > 0
    ? { ms: bodyTimeoutMs, queue: new DelayQueue(bodyTimeoutMs) }
    : undefined;
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
      request.collect(envelopesMaxBytes(opt.readMaxBytes), envelopeCheck(opt.readMaxBytes), bodyTimeout, (body) => {
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
