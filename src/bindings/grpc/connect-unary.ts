// HOT PATH: a Connect unary call on `fetch`, without Connect's generic handler (async iterables, a
// handler context with linked AbortControllers and Headers copies per call). Built once per server.
/**
 * Connect's unary protocol for `CallTool` and `GetTools`, answered straight from `server.fetch`: a
 * `POST` of `application/json` or `application/proto`, uncompressed, with or without a
 * `Content-Length` and a `connect-timeout-ms` deadline. That is what Connect, gRPC-Web-less browser
 * and `buf curl` clients send. What is left (a GET, a compressed body, gRPC-Web, a streaming or unknown
 * content type) goes to Connect's own handler, which stays the one implementation of those.
 *
 * It answers what Connect's handler answers, built from Connect's own parts: its serialisers (made with
 * the router's options), its body reader and limits, its timeout parser and handler context, its error
 * JSON and HTTP status mapping.
 *
 * @module
 */
import {
  create,
  type DescMessage,
  type DescMethodUnary,
  fromJsonString,
  type JsonReadOptions,
  type JsonWriteOptions,
  type MessageShape,
  toJsonString,
} from "@bufbuild/protobuf";
import { Code, ConnectError, createHandlerContext, type HandlerContext } from "@connectrpc/connect";
import {
  createMethodSerializationLookup,
  createMethodUrl,
  getJsonOptions,
  mergeNonProtocolHeaders,
  type MethodSerializationLookup,
  readAllBytes,
  validateUniversalHandlerOptions,
} from "@connectrpc/connect/protocol";
import {
  codeToHttpStatus,
  contentTypeUnaryJson,
  contentTypeUnaryProto,
  errorToJsonBytes,
  parseContentType,
  parseTimeout,
} from "@connectrpc/connect/protocol-connect";
import { MCPLite, ToolResponseSchema } from "../../gen/mcplite/mcplite_pb.ts";
import type { Host, ServerCore } from "../../server/binding.ts";
import { JSON_INIT, responseInit } from "../../server/responses.ts";
import { scopeKey, toolScopes } from "../../core/scopes.ts";
import { toolResponseJson, toolsList } from "./envelope.ts";
import { createCallTool } from "./service.ts";

/** Answers a request, or returns `undefined` when Connect's generic handler must answer it. */
export type DirectUnary = (request: Request, host: Host) => Promise<Response> | undefined;

/** The options Connect's router on `fetch` is built with; the direct path must match them. */
export interface ConnectUnaryOptions {
  /** The largest request message, in bytes (the router's `readMaxBytes`). */
  readMaxBytes: number;
}

/**
 * Creates the direct Connect unary handlers of a server's unary methods, by request path
 * (`/mcplite.MCPLite/CallTool`, `/mcplite.MCPLite/GetTools`).
 *
 * @param core The server's registry and options.
 * @param options The router's options.
 * @returns The handlers by path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer } from "../../../mod.ts";
 * import { NO_HOST } from "../../server/binding.ts";
 * import { createConnectUnary } from "./connect-unary.ts";
 *
 * const core = createServer({ name: "demo", version: "1.0.0" })["~core"];
 * const direct = createConnectUnary(core, { readMaxBytes: core.options.maxBodyBytes });
 * const getTools = direct.get("/mcplite.MCPLite/GetTools")!;
 * const request = (headers: Record<string, string>) =>
 *   new Request("http://localhost/mcplite.MCPLite/GetTools", { method: "POST", headers, body: "{}" });
 * const response = await getTools(request({ "content-type": "application/json" }), NO_HOST);
 * assert.deepEqual(await response!.json(), {});
 * assert.equal(getTools(request({ "content-type": "application/grpc-web+json" }), NO_HOST), undefined); // Connect's
 * ```
 */
export function createConnectUnary(core: ServerCore, options: ConnectUnaryOptions): Map<string, DirectUnary> {
  const { registry } = core;
  const opt = validateUniversalHandlerOptions({ readMaxBytes: options.readMaxBytes });
  const callTool = createCallTool(core);
  const getTools = MCPLite.method.getTools;
  const memoKeys = ["grpc:tools:json", "grpc:tools:proto"];
  return new Map<string, DirectUnary>([
    [
      createMethodUrl("/", getTools),
      directUnary(getTools, opt, (_input, _request, _context, binary, encode, host) => {
        // The answer only changes with the tool table (and the caller's scope set, when tools have
        // scopes): serialised once per change, format and scope set.
        const key = memoKeys[binary ? 1 : 0] + scopeKey(toolScopes(registry), host.auth);
        return registry.memo(key, () => encode(toolsList(registry, host.auth), binary));
      }),
    ],
    [
      createMethodUrl("/", MCPLite.method.callTool),
      directUnary(MCPLite.method.callTool, opt, async (input, request, context, binary, encode, host) => {
        // Without a deadline the call reads the request's own signal, and only if the handler asks.
        const response = await callTool(input, context ?? request, host);
        return binary ? encode(create(ToolResponseSchema, response), true) : toolResponseJson(response);
      }),
    ],
  ]);
}

type HandlerOptions = ReturnType<typeof validateUniversalHandlerOptions>;

/** Serialises an output message as Connect does, but JSON to a string, which `Response` encodes natively. */
type Encode<O extends DescMessage> = (message: MessageShape<O>, binary: boolean) => string | Uint8Array;

function encoderOf<I extends DescMessage, O extends DescMessage>(
  method: DescMethodUnary<I, O>,
  serialization: MethodSerializationLookup<I, O>,
  jsonOptions: Partial<JsonReadOptions & JsonWriteOptions>,
): Encode<O> {
  const binary = serialization.getO(true);
  return (message, useBinary) => {
    if (useBinary) return binary.serialize(message);
    try {
      return toJsonString(method.output, message, jsonOptions);
    } catch (error) {
      throw ConnectError.from(error, Code.Internal);
    }
  };
}

/** The init of a successful binary answer (JSON ones use `JSON_INIT`). */
const PROTO_INIT: ResponseInit = responseInit({ "content-type": contentTypeUnaryProto });

const NO_BODY: AsyncIterable<Uint8Array> = { async *[Symbol.asyncIterator]() {} };

/** A method's work: the answer's bytes (or JSON text) for a parsed request. */
type Run<I extends DescMessage, O extends DescMessage> = (
  input: MessageShape<I>,
  request: Request,
  context: HandlerContext | undefined,
  binary: boolean,
  encode: Encode<O>,
  host: Host,
) => string | Uint8Array | Promise<string | Uint8Array>;

/**
 * Wraps a unary method: checks that the request is one this path serves, reads and parses the body with
 * Connect's serialisers, runs the method and answers its message, or Connect's error JSON.
 */
function directUnary<I extends DescMessage, O extends DescMessage>(
  method: DescMethodUnary<I, O>,
  opt: HandlerOptions,
  run: Run<I, O>,
): DirectUnary {
  const serialization = createMethodSerializationLookup(method, opt.binaryOptions, opt.jsonOptions, opt);
  const jsonOptions = getJsonOptions(opt.jsonOptions);
  const encode = encoderOf(method, serialization, jsonOptions);
  const limit = opt.readMaxBytes;

  /**
   * Reads and parses the body as Connect does. A body whose `Content-Length` is within the limit is read
   * whole by the runtime (HTTP servers hold a request to its declared length), JSON as text; any other
   * (no length, too large, oddly spelt) by Connect's own bounded reader.
   */
  async function parse(request: Request, binary: boolean): Promise<MessageShape<I>> {
    const declared = request.headers.get("content-length");
    const length = Number(declared);
    if (declared !== null && length <= limit && String(length) === declared) {
      if (binary) return serialization.getI(true).parse(new Uint8Array(await request.arrayBuffer()));
      const text = await request.text();
      try {
        return fromJsonString(method.input, text, jsonOptions);
      } catch (error) {
        throw ConnectError.from(error, Code.InvalidArgument);
      }
    }
    const bytes = await readAllBytes(request.body ?? NO_BODY, limit, declared);
    return serialization.getI(binary).parse(bytes);
  }

  /** Runs the method on the parsed body and answers its message. */
  async function succeed(
    request: Request,
    binary: boolean,
    context: HandlerContext | undefined,
    host: Host,
  ): Promise<Response> {
    const body = await run(await parse(request, binary), request, context, binary, encode, host);
    return new Response(body as string | Uint8Array<ArrayBuffer>, binary ? PROTO_INIT : JSON_INIT);
  }

  async function answer(request: Request, binary: boolean, host: Host): Promise<Response> {
    try {
      return await succeed(request, binary, undefined, host);
    } catch (error) {
      return connectErrorResponse(error, opt);
    }
  }

  /** A call with a deadline: Connect's own handler context runs it, and is aborted when it ends. */
  async function answerBefore(request: Request, binary: boolean, timeout: string, host: Host): Promise<Response> {
    const { timeoutMs, error: invalid } = parseTimeout(timeout, opt.maxTimeoutMs);
    const context = createHandlerContext({
      service: method.parent,
      method,
      protocolName: "connect",
      requestMethod: request.method,
      url: request.url,
      timeoutMs,
      requestSignal: request.signal,
      requestHeader: request.headers,
    });
    try {
      if (invalid !== undefined) throw invalid;
      return await succeed(request, binary, context, host);
    } catch (error) {
      context.abort(error);
      return connectErrorResponse(error, opt);
    } finally {
      context.abort();
    }
  }

  return function direct(request, host) {
    if (request.method !== "POST") return undefined; // a Connect GET
    const headers = request.headers;
    const type = headers.get("content-type");
    let binary: boolean;
    if (type === contentTypeUnaryJson) binary = false;
    else if (type === contentTypeUnaryProto) binary = true;
    else {
      const parsed = parseContentType(type);
      if (parsed === undefined || parsed.stream) return undefined; // gRPC-Web, streaming or unsupported
      binary = parsed.binary;
    }
    const encoding = headers.get("content-encoding");
    if (encoding !== null && encoding !== "identity") return undefined; // Connect negotiates compression
    const timeout = headers.get("connect-timeout-ms");
    return timeout === null ? answer(request, binary, host) : answerBefore(request, binary, timeout, host);
  };
}

/**
 * Connect's unary error response: the error JSON, with the HTTP status its code maps to.
 *
 * @param thrown What was thrown; anything but a `ConnectError` is masked as `internal`.
 * @param opt The JSON options of the method (for the details).
 * @returns The response.
 */
export function connectErrorResponse(thrown: unknown, opt: Pick<HandlerOptions, "jsonOptions">): Response {
  const error = thrown instanceof ConnectError
    ? thrown
    : new ConnectError("internal error", Code.Internal, undefined, undefined, thrown);
  const headers = new Headers({ "content-type": contentTypeUnaryJson });
  if (!error.isWireError) mergeNonProtocolHeaders(headers, error.metadata);
  const body = errorToJsonBytes(error, opt.jsonOptions);
  headers.set("content-length", String(body.byteLength));
  return new Response(body as Uint8Array<ArrayBuffer>, { status: codeToHttpStatus(error.code), headers });
}
