// HOT PATH: a gRPC unary call on `serveGrpc()`, without Connect's generic handler (its chain of async
// iterables for the body, the envelopes and the answer, and its interceptors). Built once per listener.
/**
 * The gRPC protocol's unary calls `CallTool` and `GetTools`, answered straight from `node:http2`: a
 * `POST` of `application/grpc` or `application/grpc+proto` (what grpc-js, grpc-go, buf curl and Connect's
 * gRPC transport send), with or without `grpc-timeout`, a gzip or brotli request and a compressed
 * answer. What is left (gRPC-Web, Connect, JSON, the streaming methods, unknown paths, and every call of
 * a server with `auth`, which Connect's interceptor authenticates) goes to Connect's Node adapter, which
 * stays the one implementation of those.
 *
 * It answers what Connect's adapter answers, built from Connect's own parts: its compression
 * negotiation and codecs, its timeout parser and handler context, its serialisers, its envelope limits
 * and messages, and its trailers (gRPC over HTTP/2 protocol, "Responses": headers, one length-prefixed
 * message, then `grpc-status`, `grpc-message` and `grpc-status-details-bin` in the trailers).
 *
 * @module
 */
import { create, type DescMessage, type DescMethodUnary, type MessageShape } from "@bufbuild/protobuf";
import { Code, ConnectError, createHandlerContext, type HandlerContext } from "@connectrpc/connect";
import { compressionBrotli, compressionGzip, universalRequestFromNodeRequest } from "@connectrpc/connect-node";
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
  headerEncoding,
  headerTimeout,
  parseContentType,
  parseTimeout,
  setTrailerStatus,
} from "@connectrpc/connect/protocol-grpc";
import type { Http2ServerRequest, Http2ServerResponse, OutgoingHttpHeaders } from "node:http2";
import { MCPLite, ToolResponseSchema } from "../../gen/mcplite/mcplite_pb.ts";
import { scopeKey, toolScopes } from "../../core/scopes.ts";
import { NO_HOST, type ServerCore } from "../../server/binding.ts";
import { toolsList } from "./envelope.ts";
import { abortReason, createCallTool } from "./service.ts";

/** Answers a request and returns `true`, or returns `false` when Connect's adapter must answer it. */
export type NodeUnary = (request: Http2ServerRequest, response: Http2ServerResponse) => boolean;

/** The options Connect's adapter is built with; the direct path must match them. */
export interface NodeUnaryOptions {
  /** The largest request message, in bytes (the adapter's `readMaxBytes`). */
  readMaxBytes: number;
  /** Aborts every call when the listener shuts down (the adapter's `shutdownSignal`). */
  shutdownSignal: AbortSignal;
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
  const getTools = MCPLite.method.getTools;
  const methods = new Map<string, Unary>([
    [
      createMethodUrl("/", getTools),
      unary(getTools, opt, (_input, _context, encode) =>
        // Serialised once per change of the tool table, shared with Connect's unary path on `fetch`.
        registry.memo(
          "grpc:tools:proto" + scopeKey(toolScopes(registry), undefined),
          () => encode(toolsList(registry)),
        )),
    ],
    [
      createMethodUrl("/", MCPLite.method.callTool),
      unary(
        MCPLite.method.callTool,
        opt,
        async (input, context, encode) => encode(create(ToolResponseSchema, await callTool(input, context, NO_HOST))),
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
  context: HandlerContext,
  encode: (message: MessageShape<O>) => Uint8Array,
) => Uint8Array | Promise<Uint8Array>;

/** What a call's signal carries once the call has been answered (a shared error: none is built per call). */
const ENDED = new ConnectError("the call has ended", Code.Canceled);

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
  run: Run<I, O>,
): Unary {
  const serialization = createMethodSerializationLookup(method, opt.binaryOptions, opt.jsonOptions, opt);
  const input = serialization.getI(true);
  const output = serialization.getO(true);
  const encode = (message: MessageShape<O>) => output.serialize(message);
  const headersFor = new Map<string, OutgoingHttpHeaders>();
  const headersOf = (compression: Compression | null): OutgoingHttpHeaders => {
    if (compression === null) return HEADERS;
    let headers = headersFor.get(compression.name);
    if (headers === undefined) {
      headersFor.set(compression.name, headers = { ...HEADERS, [headerEncoding]: compression.name });
    }
    return headers;
  };

  return async function answer(request, response) {
    const header = (name: string) => {
      const value = request.headers[name.toLowerCase()]; // Connect spells them Grpc-Encoding and so on
      return typeof value === "string" ? value : null;
    };
    const compression = compressionNegotiate(
      opt.acceptCompression,
      header(headerEncoding),
      header(headerAcceptEncoding),
      headerAcceptEncoding,
    );
    const timeout = parseTimeout(header(headerTimeout), opt.maxTimeoutMs);
    const universal = universalRequestFromNodeRequest(request, undefined, undefined);
    const context = createHandlerContext({
      service: method.parent,
      method,
      protocolName: "grpc",
      requestMethod: "POST",
      url: universal.url,
      timeoutMs: timeout.timeoutMs,
      shutdownSignal: opt.shutdownSignal,
      requestSignal: universal.signal,
      requestHeader: universal.header,
    });
    const headers = headersOf(compression.response);
    try {
      // Refused before the body is read, as Connect refuses them.
      if (compression.error !== undefined) throw compression.error;
      if (timeout.error !== undefined) throw timeout.error;
      const message = await readMessage(request, opt.readMaxBytes, compression.request, context.signal);
      let bytes = await run(input.parse(message), context, encode);
      let flags = 0;
      const compress = compression.response;
      if (compress !== null && bytes.byteLength >= opt.compressMinBytes) {
        bytes = await compress.compress(bytes);
        flags = compressedFlag;
      }
      if (context.signal.aborted) throw abortReason(context.signal);
      if (!writable(response)) return;
      // Headers, the message and the trailers in one go: one write for the stream, not three. The
      // encoding is named only when the message is compressed: a client told `gzip` sets up its
      // decompressor even for a message sent plain (gRPC Compression: the flag decides per message).
      response.writeHead(200, flags === 0 ? HEADERS : headers);
      response.addTrailers(OK_TRAILERS);
      response.end(encodeEnvelope(flags, bytes));
    } catch (thrown) {
      context.abort(thrown);
      if (!writable(response)) return;
      response.writeHead(200, headers);
      response.addTrailers(trailersOf(thrown));
      response.end();
    } finally {
      context.abort(ENDED); // lets go of the request's and the listener's signals
    }
  };
}

/**
 * Reads the request's one message: every envelope's declared length within `readMaxBytes` (refused as
 * soon as its prefix arrives), decompressed with the negotiated codec, exactly one envelope in all.
 * Rejects when the signal aborts first (the deadline passed, the client cancelled, the listener stops).
 */
function readMessage(
  request: Http2ServerRequest,
  readMaxBytes: number,
  compression: Compression | null,
  signal: AbortSignal,
): Promise<Uint8Array> {
  return new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let checked = 0; // bytes whose envelope prefixes were checked
    const fail = (error: unknown) => {
      done();
      reject(error);
    };
    const onAbort = () => fail(abortReason(signal));
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
      const body = chunks.length === 1 ? chunks[0] : concat(chunks, size);
      single(body, readMaxBytes, compression).then(resolve, reject);
    };
    const onError = (error: unknown) => fail(ConnectError.from(error, Code.Internal));
    function done() {
      request.off("data", onData).off("end", onEnd).off("error", onError);
      signal.removeEventListener("abort", onAbort);
    }
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort);
    request.on("data", onData).on("end", onEnd).on("error", onError);
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

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
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
