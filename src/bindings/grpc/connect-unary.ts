// HOT PATH: a Connect unary call on `fetch`, without Connect's generic handler. Built once per server.
/**
 * Connect's unary protocol for `CallTool` and `GetTools` straight from `server.fetch`: a `POST` of
 * `application/json` or `application/proto`, uncompressed, with or without `Content-Length` and
 * `connect-timeout-ms` (what Connect, browser and `buf curl` clients send). The rest (GET, compression,
 * gRPC-Web, streams) goes to Connect's handler. The answer is Connect's handler's (Connect protocol,
 * Unary-Request and Unary-Response): its timeout parser, error JSON and HTTP status mapping.
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { mergeNonProtocolHeaders, validateUniversalHandlerOptions } from "@connectrpc/connect/protocol";
import {
  codeToHttpStatus,
  contentTypeUnaryJson,
  contentTypeUnaryProto,
  errorToJsonBytes,
  parseContentType,
  parseTimeout,
} from "@connectrpc/connect/protocol-connect";
import { answersRefusal, type Host, JSON_INIT, responseInit, type ServerCore } from "../../server/mod.ts";
import { createUnaryMethods, type HandlerOptions, type UnaryAnswer, type UnaryMethod } from "./unary.ts";
import { readUnenveloped } from "./unary-body.ts";
import { UnaryCall } from "./unary-call.ts";

/**
 * Answers a request (at once where nothing is pending), or returns `undefined` when Connect's generic
 * handler must answer it.
 */
export type DirectUnary = (request: Request, host: Host) => Response | Promise<Response> | undefined;

/** The options Connect's router on `fetch` is built with; the direct path must match them. */
export interface ConnectUnaryOptions {
  /** The largest request message, in bytes (the router's `readMaxBytes`). */
  readMaxBytes: number;
}

/**
 * Creates the direct Connect unary handlers of a server's unary methods, by request path
 * (`/mcplite.MCPLite/CallTool`, `/mcplite.MCPLite/GetTools`). A body still arriving after the server's
 * `bodyTimeoutMs` answers `deadline_exceeded`.
 *
 * @param core The server's registry and options.
 * @param options The router's options.
 * @returns The handlers by path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer } from "../../../mod.ts";
 * import { NO_HOST } from "../../server/binding-contract.ts";
 * import { attachListener } from "../../binding.ts";
 * import { createConnectUnary } from "./connect-unary.ts";
 *
 * const { core } = attachListener(createServer({ name: "demo", version: "1.0.0" }));
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
  const opt = validateUniversalHandlerOptions({ readMaxBytes: options.readMaxBytes });
  const bodyTimeoutMs = core.options.bodyTimeoutMs;
  const direct = new Map<string, DirectUnary>();
  for (const [path, method] of createUnaryMethods(core, opt)) direct.set(path, directUnary(method, opt, bodyTimeoutMs));
  return direct;
}

/** The init of a successful binary answer (JSON ones use `JSON_INIT`). */
const PROTO_INIT: ResponseInit = responseInit({ "content-type": contentTypeUnaryProto });

/** Serves a unary method on the direct path: the requests it takes, answered as Connect does. */
function directUnary(method: UnaryMethod, opt: HandlerOptions, bodyTimeoutMs: number): DirectUnary {
  /**
   * Reads the message, runs the method and answers: at once, with no promise, where the body is
   * already held (Bun) and the method answered at once (a synchronous tool).
   */
  function answer(request: Request, binary: boolean, timeout: string | null, host: Host): Response | Promise<Response> {
    const deadline = timeout === null ? undefined : parseTimeout(timeout, opt.maxTimeoutMs);
    const call = new UnaryCall(request, deadline?.timeoutMs, bodyTimeoutMs);
    const answered = (body: UnaryAnswer) => {
      call.end();
      return new Response(body as string | Uint8Array<ArrayBuffer>, binary ? PROTO_INIT : JSON_INIT);
    };
    const failed = (error: unknown) => {
      call.end();
      return connectErrorResponse(error, opt);
    };
    try {
      if (deadline?.error !== undefined) throw deadline.error;
      const bytes = readUnenveloped(call, opt.readMaxBytes, request.headers.get("content-length"));
      // From the message on, one callback: a method that answers at once is answered in it.
      const run = (read: Uint8Array) => {
        const body = method.invoke(read, call, binary, host);
        return body instanceof Promise ? body.then(answered, failed) : answered(body);
      };
      return bytes instanceof Promise ? bytes.then(run).catch(failed) : run(bytes);
    } catch (error) {
      return failed(error);
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
    return answer(request, binary, headers.get("connect-timeout-ms"), host);
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
  const response = new Response(body as Uint8Array<ArrayBuffer>, { status: codeToHttpStatus(error.code), headers });
  return answersRefusal(response, error.cause); // a refusal for a scope: the edge adds its step-up challenge
}
