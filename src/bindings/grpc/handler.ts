/**
 * The gRPC binding on `server.fetch`: Connect and gRPC-Web at `/mcplite.MCPLite/*`, on any runtime's
 * fetch server (Deno.serve, Bun.serve, Workers). Plain gRPC needs HTTP trailers, which a fetch
 * `Response` cannot send, so it is refused with a clean 415; use `serveGrpc()` for it. Connect's unary
 * calls of `CallTool` and `GetTools` take a direct path (connect-unary.ts) that skips Connect's generic
 * handler; everything else (streams, gRPC-Web, GET, compression) goes through Connect's handler.
 *
 * @module
 */
import type { ProtocolError } from "../../errors/error.ts";
import {
  ConnectError,
  type ContextKey,
  createConnectRouter,
  createContextKey,
  createContextValues,
  type Interceptor,
} from "@connectrpc/connect";
import {
  type UniversalHandler,
  type UniversalServerRequest,
  universalServerResponseToFetch,
} from "@connectrpc/connect/protocol";
import {
  answersRefusal,
  type Binding,
  type BodyLimits,
  type Host,
  readBodyBytes,
  type RouteHandler,
  streamingResponse,
} from "../../server/mod.ts";
import { type BodySource, readEnvelopes, readUnenveloped } from "./unary-body.ts";
import { pathOf } from "../../internal/url.ts";
import { holdMsOf } from "../../server/mod.ts";
import { connectErrorResponse, createConnectUnary } from "./connect-unary.ts";
import { createGrpcRoutes, type GrpcRoutesOptions } from "./service.ts";
import { HOST_KEY } from "./host-key.ts";
import { REFLECTION_SERVICE_PATHS } from "./reflection.ts";
import { errorToConnectError } from "./status.ts";

/** The path prefix of the `mcplite.MCPLite` service, as every gRPC and Connect client calls it. */
export const GRPC_SERVICE_PATH = "/mcplite.MCPLite/";

/** Where Connect's handler leaves the error a request's call ended with (one box a request). */
const ENDED_KEY: ContextKey<{ error?: unknown } | undefined> = createContextKey<{ error?: unknown } | undefined>(
  undefined,
  { description: "mcplite call error" },
);

/** Keeps the error a call ended with, so that its response hands a refusal back to the edge. */
const keepError: Interceptor = (next) => async (request) => {
  try {
    return await next(request);
  } catch (error) {
    const ended = request.contextValues.get(ENDED_KEY);
    if (ended !== undefined) ended.error = error;
    throw error;
  }
};

const NOT_FOUND_BODY = JSON.stringify({ code: "unimplemented", message: "no such method on mcplite.MCPLite" });

/**
 * Creates the binding that serves the `mcplite.MCPLite` service (Connect and gRPC-Web, binary and
 * JSON) on a server's `fetch`, with gRPC Server Reflection (`grpc.reflection.v1` and `v1alpha`)
 * unless `reflection: false`. List it in `createServer({ bindings })`; the router is built once.
 *
 * @param options Whether to serve reflection (default `true`), and how long `CallToolStream` follows
 *   deferred work (`holdMs`; default: the server's).
 * @returns The binding.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "../../../mod.ts";
 * import { grpcBinding } from "./handler.ts";
 *
 * const add = defineTool("add")
 *   .input(v.object({ a: v.number(), b: v.number() }))
 *   .handle(({ a, b }) => ({ sum: a + b }));
 * const server = createServer({ name: "math", version: "1.0.0", bindings: [grpcBinding()] }).tool(add);
 *
 * // Connect's JSON form of MCPLite.CallTool: curl, fetch or any Connect client.
 * const response = await server.fetch(new Request("http://localhost/mcplite.MCPLite/CallTool", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ name: "add", arguments: { a: 1, b: 2 } }),
 * }));
 * const { result, meta } = await response.json();
 * assert.deepEqual(result.structuredContent, { sum: 3 });
 * assert.equal(meta.responseType, undefined); // ANSWER, the default, is omitted in JSON
 * ```
 */
export function grpcBinding(options: GrpcRoutesOptions = {}): Binding {
  if (options.holdMs !== undefined) holdMsOf(options.holdMs, "holdMs"); // refused here, not at mount
  const reflection = options.reflection ?? true;
  return function grpc(core) {
    // gRPC proper is refused (415): its status travels in trailers, which fetch cannot send.
    const router = createConnectRouter({
      grpc: false,
      readMaxBytes: core.options.maxBodyBytes,
      interceptors: [keepError],
    });
    createGrpcRoutes(core, { reflection, holdMs: options.holdMs })(router);
    const byPath = new Map<string, UniversalHandler>(router.handlers.map((h) => [h.requestPath, h]));
    const direct = createConnectUnary(core, { readMaxBytes: core.options.maxBodyBytes });
    const strip = core.options.basePath.length; // Connect's method paths do not carry the server's basePath
    const handle: RouteHandler = function grpcFetch(request, host) {
      const path = strip === 0 ? pathOf(request.url) : pathOf(request.url).slice(strip);
      // The common Connect unary request is answered directly (connect-unary.ts); every other one by
      // Connect's handler.
      return direct.get(path)?.(request, host) ?? viaConnect(byPath.get(path), request, host, core.options);
    };
    const refuse = (error: ProtocolError) => connectErrorResponse(errorToConnectError(error), { jsonOptions: {} });
    const route = { handle, refuse, methods: "POST, GET" };
    const paths = reflection ? [GRPC_SERVICE_PATH, ...REFLECTION_SERVICE_PATHS] : [GRPC_SERVICE_PATH];
    return { routes: new Map(paths.map((path) => [`${path}*`, route])) };
  };
}

/**
 * Answers a request with Connect's generic handler of its method, or 404 when the service has none. A
 * request Connect answers without reading its body (plain gRPC's 415) has its body cancelled, so the
 * runtime does not hold it (workerd logs "Failed to drain the unused request body" otherwise).
 */
async function viaConnect(
  handler: UniversalHandler | undefined,
  request: Request,
  host: Host,
  limits: BodyLimits,
): Promise<Response> {
  if (handler === undefined) {
    await request.body?.cancel();
    return new Response(NOT_FOUND_BODY, { status: 404, headers: { "content-type": "application/json" } });
  }
  // The universal request carries Connect's context values, where the service finds the host, and the
  // body as the server's body reader reads it.
  const ended: { error?: unknown } = {};
  const universal: UniversalServerRequest = {
    httpVersion: "",
    method: request.method,
    url: request.url,
    header: request.headers,
    // A bidirectional stream (reflection) reads each message as it comes; every other method one message.
    body: handler.method.methodKind === "bidi_streaming" ? streamedBody(request) : bodyOf(request, limits),
    signal: request.signal,
    contextValues: createContextValues().set(HOST_KEY, host).set(ENDED_KEY, ended),
  };
  const answer = universalServerResponseToFetch(await handler(universal));
  // A server stream (CallToolStream, CallMethodStream) holds its call in the request budgets until it ends, as an
  // SSE answer does; one that holds its request open (events/stream) gave it back already (`Host.exempt`).
  const response = handler.method.methodKind === "server_streaming" ? streamingResponse(answer) : answer;
  if (!request.bodyUsed && request.body !== null && !request.body.locked) await request.body.cancel();
  // A unary call refused for a scope (gRPC-Web: status 200, the error in the trailer frame) hands its
  // refusal back with the response, for the edge's step-up challenge.
  return answersRefusal(response, ended.error instanceof ConnectError ? ended.error.cause : ended.error);
}

/**
 * The body of a bidirectional stream, chunk by chunk as it arrives: Connect reads each enveloped message
 * (within its `readMaxBytes`) and answers it before the next arrives, where the runtime serves HTTP/2
 * (Deno.serve's h2c, a TLS listener); over HTTP/1.1 the client sends its messages, then reads the answers.
 */
async function* streamedBody(request: Request): AsyncIterable<Uint8Array> {
  if (request.body === null) return;
  const reader = request.body.getReader();
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) yield chunk.value;
  } finally {
    reader.releaseLock();
  }
}

/**
 * The body Connect's handler reads, through the server's body reader: one chunk, within the server's
 * `bodyTimeoutMs` (DEADLINE_EXCEEDED after it) and Connect's limits, refused with Connect's messages. Every
 * method of the service takes one request message, which Connect reads whole before it answers.
 */
async function* bodyOf(request: Request, { maxBodyBytes, bodyTimeoutMs }: BodyLimits): AsyncIterable<Uint8Array> {
  const source: BodySource = {
    read: (max, check) => readBodyBytes(request, { maxBodyBytes: max, bodyTimeoutMs }, check),
  };
  const headers = request.headers;
  // gRPC-Web and Connect's streaming protocol frame the message in envelopes; Connect's unary does not.
  const type = headers.get("content-type") ?? "";
  yield type.startsWith("application/grpc") || type.startsWith("application/connect+")
    ? await readEnvelopes(source, maxBodyBytes)
    : await readUnenveloped(source, maxBodyBytes, headers.get("content-length"));
}
