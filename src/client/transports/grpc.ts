/**
 * The client's gRPC transport: the `mcplite.MCPLite` service through any Connect transport. Given a
 * URL it speaks the Connect protocol over `fetch` (a server's `grpcBinding()`, any runtime, no
 * `node:*`); given a Connect transport it speaks whatever that one does, e.g. real gRPC over HTTP/2
 * with `createGrpcTransport` from `@connectrpc/connect-node` against `serveGrpc()`.
 *
 * @module
 */
// Connect documents its own types; `@ignore` tells `deno doc --lint` they are not ours to export.
/** @ignore */
import { type ClientAuth, messageOf } from "../http.ts";
import { codeOfGrpcStatus } from "../../errors/grpc-status.ts";
import { sentErrorCode } from "../../errors/sent-code.ts";
import { responseBound, responseTooLarge } from "../response-bound.ts";
import { peerOf, sendTraced, withTraceHeaders } from "../carry-trace.ts";
import type { HeadersLike } from "../../internal/headers-like.ts";
import { Code, ConnectError, createClient, type Transport as ConnectTransport } from "@connectrpc/connect";
import { type UniversalClientFn, universalClientResponseFromFetch } from "@connectrpc/connect/protocol";
import { concatBytes } from "../../internal/concat-bytes.ts";
import { isNotHttp1 } from "../not-http1.ts";
import { McpliteError } from "../../errors/error.ts";
import { createTransport as createConnectProtocol } from "@connectrpc/connect/protocol-connect";
import { createTransport as createGrpcWebProtocol } from "@connectrpc/connect/protocol-grpc-web";
import type { JsonObject } from "@bufbuild/protobuf";
import { BadRequestSchema, ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.ts";
import {
  MCPLite,
  type MethodMessage,
  type Prompt,
  ResponseType,
  type ToolResponse,
} from "../../gen/mcplite/mcplite_pb.ts";
import { isObject } from "../../internal/is-object.ts";
import { isExtensionMethod } from "./extension-method-name.ts";
import { clientError, rpcError, transportError } from "../errors.ts";
import type {
  InputRequest,
  Progress,
  Reply,
  RequestContext,
  RequestPeer,
  ToolCallRequest,
  ToolInfo,
  ToolListing,
  Transport,
} from "../transport.ts";

/** Options of {@link grpcTransport} when it is given a URL. */
export interface GrpcTransportOptions {
  /** `connect` (default) or `grpc-web`; both run over `fetch` (HTTP/1.1 or whatever it negotiates). */
  protocol?: "connect" | "grpc-web";
  /** Sends protobuf binary instead of JSON (default `true`). */
  binary?: boolean;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
  /** Headers sent with every call (e.g. `authorization`). */
  headers?: HeadersLike;
  /** OAuth for protected servers (`oauth({…})`, `clientCredentials({…})`), wrapping `fetch`. */
  auth?: ClientAuth;
  /**
   * The most bytes one answer's message may hold (default 16 MiB), Connect's `readMaxBytes`: past it the call
   * fails (`RESOURCE_EXHAUSTED`). A URL target only: a Connect transport given has its own `readMaxBytes`.
   */
  maxResponseBytes?: number;
  /**
   * Where a Connect transport given as the target sends (the `baseUrl` it was made with), which the
   * client's telemetry names (`server.address`, `server.port`): a Connect transport does not tell. A
   * URL target names itself.
   */
  baseUrl?: string;
}

/**
 * Creates a client transport for the `mcplite.MCPLite` service.
 *
 * @param target The server's base URL (the service lives at `{url}/mcplite.MCPLite/*`), spoken to over
 *   `fetch` (HTTP/1.1: a server's `fetch` with `grpcBinding()`), or a Connect transport
 *   (`createGrpcTransport({ baseUrl })` from `@connectrpc/connect-node` for real gRPC, and for
 *   `serveGrpc()`'s HTTP/2-only listener, whose URL given here fails with a `transport` error saying so).
 * @param options The protocol, encoding, `fetch` and headers, when `target` is a URL; the headers, and the
 *   `baseUrl` telemetry names, with a Connect transport.
 * @returns The transport.
 *
 * @example
 * ```ts ignore
 * import { createGrpcTransport } from "@connectrpc/connect-node";
 * import { grpcTransport } from "./grpc.ts";
 * const overFetch = grpcTransport("http://localhost:8000"); // Connect
 * const baseUrl = "http://127.0.0.1:50051";
 * const overH2 = grpcTransport(createGrpcTransport({ baseUrl }), { baseUrl }); // gRPC
 * ```
 */
export function grpcTransport(target: string | ConnectTransport, options: GrpcTransportOptions = {}): Transport {
  const connect = typeof target === "string" ? fetchTransport(target, options) : target;
  const client = createClient(MCPLite, connect);
  const headers = options.headers;
  const url = typeof target === "string" ? target : options.baseUrl;
  // gRPC runs over HTTP/2 on TCP; the address is known from a URL only.
  const peer: RequestPeer = url === undefined ? { transport: "tcp" } : peerOf(url);
  /** Sends one RPC as one request of the client's telemetry, which names the server it goes to. */
  const traced = <T>(method: string, params: Record<string, unknown>, ctx: RequestContext, rpc: Rpc<T>) =>
    sendTraced(ctx, { method, params, peer }, rpc);

  return {
    wire: "grpc",
    tracesRequests: true,

    listTools: (ctx) => traced("tools/list", {}, ctx, listTools),
    callTool: (call, ctx) => traced("tools/call", { name: call.name }, ctx, (sent) => callTool(call, sent)),
    request: (method, params, ctx) => traced(method, params, ctx, (sent) => sendRequest(method, params, sent)),
  };

  async function listTools(ctx: RequestContext): Promise<ToolListing> {
    try {
      const { tools } = await client.getTools({}, { signal: ctx.signal, headers: metadataOf(headers, ctx) });
      ctx.activity();
      return {
        tools: tools.map((t) => {
          const info: ToolInfo = { name: t.name, inputSchema: t.inputSchema ?? { type: "object" } };
          if (t.type !== "") info["@type"] = t.type;
          if (t.title !== "") info.title = t.title;
          if (t.description !== "") info.description = t.description;
          if (t.outputSchema !== undefined) info.outputSchema = t.outputSchema;
          if (t.annotations !== undefined) info.annotations = t.annotations;
          return info;
        }),
      };
    } catch (error) {
      throw clientErrorOf(error, ctx, "tools/list");
    }
  }

  async function callTool(call: ToolCallRequest, ctx: RequestContext): Promise<Reply> {
    const request = {
      name: call.name,
      arguments: call.arguments as JsonObject,
      inputResponses: call.inputResponses as JsonObject | undefined,
      requestState: call.requestState ?? "",
    };
    const callOptions = { signal: ctx.signal, headers: metadataOf(headers, ctx) };
    try {
      // Progress asked for needs the stream as partials do: a unary answer carries neither.
      if (!ctx.stream && ctx.onProgress === undefined) {
        const response = await client.callTool(request, callOptions);
        ctx.activity();
        return replyFromResponse(response);
      }
      // A stream: partials carry no meta; the message with meta is the complete reply.
      for await (const response of client.callToolStream(request, callOptions)) {
        ctx.activity();
        if (response.meta !== undefined) return replyFromResponse(response);
        const progress = response.result?.progress;
        if (isProgress(progress)) ctx.onProgress?.(progress); // the handler's or its deferred work's (§5.3)
        else ctx.onPartial?.(response.result?.partial);
      }
      throw rpcError("the stream ended without a complete response");
    } catch (error) {
      throw clientErrorOf(error, ctx, "tools/call");
    }
  }

  /**
   * `prompts/list` and `prompts/get` as `GetPrompts` and `GetPrompt` (the README's extension E1, of §8.1);
   * `resources/list`, `resources/templates/list` and `resources/read` as `GetResources`,
   * `GetResourceTemplates` and `ReadResource` (E4); an extension's method as `CallMethod` (E5).
   */
  async function sendRequest(method: string, params: Record<string, unknown>, ctx: RequestContext): Promise<Reply> {
    const callOptions = { signal: ctx.signal, headers: metadataOf(headers, ctx) };
    // A prompt's rendering and a resource's read carry an input round, as `ToolRequest` does, and answer with
    // the result, or with the round's `meta` when the server asks for input.
    const round = {
      inputResponses: params.inputResponses as JsonObject | undefined,
      requestState: typeof params.requestState === "string" ? params.requestState : "",
    };
    const answered = (response: Pick<ToolResponse, "meta" | "result">): Reply => {
      ctx.activity();
      return response.meta === undefined
        ? { kind: "complete", result: response.result ?? {} }
        : replyFromResponse(response);
    };
    try {
      if (method === "resources/list") {
        const { resources } = await client.getResources({}, callOptions);
        ctx.activity();
        return { kind: "complete", result: { resources } };
      }
      if (method === "resources/templates/list") {
        const { resourceTemplates } = await client.getResourceTemplates({}, callOptions);
        ctx.activity();
        return { kind: "complete", result: { resourceTemplates } };
      }
      if (method === "resources/read") {
        return answered(await client.readResource({ uri: String(params.uri ?? ""), ...round }, callOptions));
      }
      if (method === "prompts/list") {
        const { prompts } = await client.getPrompts({}, callOptions);
        ctx.activity();
        return { kind: "complete", result: { prompts: prompts.map(promptInfo) } };
      }
      if (method === "prompts/get") {
        const request = { name: String(params.name ?? ""), arguments: (params.arguments ?? {}) as JsonObject };
        return answered(await client.getPrompt({ ...request, ...round }, callOptions));
      }
      // An extension's method (SEP-2133: under a reverse-DNS vendor prefix, `org.example/ledger/get`; MCP Events')
      // as `CallMethod` (E5); a notification too, answered with an empty result: gRPC has no notifications. One whose
      // caller hears its notifications (`client.events.stream()`) as `CallMethodStream`, which carries them.
      if (isExtensionMethod(method)) {
        const request = { method, params: params as JsonObject };
        if (ctx.hearsNotifications && !ctx.notification) {
          return await streamMethod(client.callMethodStream(request, callOptions), ctx);
        }
        const { result } = await client.callMethod(request, callOptions);
        ctx.activity();
        return { kind: "complete", result: result ?? {} };
      }
    } catch (error) {
      throw clientErrorOf(error, ctx, method);
    }
    throw clientError("unsupported", `${method} is not available over gRPC`);
  }
}

/**
 * Reads a `CallMethodStream` (E5): each notification to the request's `onNotification` as it comes, then the method's
 * result, the stream's last message.
 */
async function streamMethod(messages: AsyncIterable<MethodMessage>, ctx: RequestContext): Promise<Reply> {
  for await (const { kind } of messages) {
    ctx.activity();
    if (kind.case === "result") return { kind: "complete", result: kind.value };
    const { method, params } = kind.value ?? {};
    if (typeof method === "string") ctx.onNotification?.(method, isObject(params) ? params : {});
  }
  throw rpcError("the stream ended without the method's result");
}

/** One RPC, sent with the context the client's telemetry gives it. */
type Rpc<T> = (ctx: RequestContext) => Promise<T>;

/** Whether a stream message's `result.progress` is a progress report. */
function isProgress(value: unknown): value is Progress {
  return typeof value === "object" && value !== null && typeof (value as Progress).progress === "number";
}

/** A listed prompt as MCP's `Prompt`: empty strings (unset proto3 fields) left out. */
function promptInfo(prompt: Prompt): Record<string, unknown> {
  const info: Record<string, unknown> = { name: prompt.name };
  if (prompt.title !== "") info.title = prompt.title;
  if (prompt.description !== "") info.description = prompt.description;
  if (prompt.arguments.length > 0) {
    info.arguments = prompt.arguments.map((a) => ({
      name: a.name,
      ...(a.title === "" ? {} : { title: a.title }),
      ...(a.description === "" ? {} : { description: a.description }),
      ...(a.required ? { required: true } : {}),
    }));
  }
  if (prompt.meta !== undefined) info._meta = prompt.meta;
  return info;
}

/** The call's metadata: the configured headers, with the trace context when the client's telemetry set one. */
function metadataOf(headers: HeadersLike | undefined, ctx: RequestContext): HeadersLike | undefined {
  return ctx.traceContext === undefined ? headers : withTraceHeaders(new Headers(headers), ctx);
}

/**
 * Connect's universal HTTP client over a fetch function. The request's body (every call's message is
 * whole: unary and server-streaming) is sent as bytes, not as a stream: Connect's own `createFetchClient`
 * sends a stream, which Node's `Request` refuses without `duplex: "half"` (Fetch Standard, `RequestInit`).
 */
function fetchClient(send: (request: Request) => Promise<Response>): UniversalClientFn {
  return async (request) => {
    let body: Uint8Array | undefined;
    if (request.body !== undefined) {
      const chunks: Uint8Array[] = [];
      for await (const chunk of request.body) chunks.push(chunk);
      body = concatBytes(chunks, chunks.reduce((size, chunk) => size + chunk.byteLength, 0));
    }
    const init = { method: request.method, headers: request.header, signal: request.signal, body };
    let response: Response;
    try {
      response = await send(new Request(request.url, init as RequestInit));
    } catch (error) {
      if (request.signal?.aborted || error instanceof McpliteError) throw error;
      throw unreachable(request.url, error);
    }
    return universalClientResponseFromFetch(response);
  };
}

/**
 * The error of a fetch that failed: a server that answered, but not in HTTP/1.1, is most likely
 * `serveGrpc()`'s HTTP/2 listener (h2c), which `fetch` cannot speak; the message says what does.
 */
function unreachable(url: string, error: unknown): McpliteError {
  const origin = new URL(url).origin;
  if (isNotHttp1(error)) {
    return transportError(
      `${origin} did not answer in HTTP/1.1, as serveGrpc()'s HTTP/2 listener (h2c) does not. grpcTransport(url) ` +
        "speaks Connect over fetch, to a server's fetch with grpcBinding(); for the HTTP/2 listener use " +
        `grpcTransport(createGrpcTransport({ baseUrl: "${origin}" })), createGrpcTransport from @connectrpc/connect-node`,
      { cause: error },
    );
  }
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return transportError(`Could not reach ${url}: ${messageOf(error)}${cause}`, { cause: error });
}

function fetchTransport(baseUrl: string, options: GrpcTransportOptions): ConnectTransport {
  const fetchFn = options.fetch ?? globalThis.fetch;
  const authed = options.auth?.wrap((request) => fetchFn(request));
  const common = {
    httpClient: fetchClient((request) => authed === undefined ? fetchFn(request) : Promise.resolve(authed(request))),
    baseUrl,
    useBinaryFormat: options.binary ?? true,
    interceptors: [],
    acceptCompression: [],
    sendCompression: null,
    compressMinBytes: 1024,
    // Connect refuses a message whose length prefix (or body) passes it, before reading it.
    readMaxBytes: Math.min(responseBound(options.maxResponseBytes), 0xffffffff),
    writeMaxBytes: 0xffffffff,
  };
  return options.protocol === "grpc-web" ? createGrpcWebProtocol(common) : createConnectProtocol(common);
}

/** Reads a complete `ToolResponse` (or `PromptResponse`) as the client's reply (MCP-lite spec v0.042 §5.2, A.3). */
function replyFromResponse(response: Pick<ToolResponse, "meta" | "result">): Reply {
  const meta = response.meta;
  switch (meta?.responseType ?? ResponseType.ANSWER) {
    case ResponseType.ANSWER:
    case ResponseType.FAILURE: // the result carries isError: the client raises ToolError from it
      return { kind: "complete", result: response.result ?? { content: [] } };
    case ResponseType.PROMISE:
      return {
        kind: "promise",
        token: meta!.promiseToken,
        retryAfterMs: meta!.retryAfterMs > 0 ? meta!.retryAfterMs : undefined,
        expiresAt: isoFromMs(meta!.expiresAt),
        estimatedCompletion: isoFromMs(meta!.estimatedCompletion),
      };
    case ResponseType.ELICITATION:
    case ResponseType.REQUEST_FOR_MORE_RESOURCE: // the README's extension: answered as an elicitation round
      return {
        kind: "input_required",
        inputRequests: (meta!.inputRequests ?? {}) as unknown as Record<string, InputRequest>,
        requestState: meta!.requestState,
      };
    default:
      throw rpcError(`unsupported response type ${meta?.responseType}`, { data: response.result });
  }
}

/** Reads an int64 of milliseconds since the epoch as ISO 8601; 0 (unset) is `undefined`. */
function isoFromMs(ms: bigint): string | undefined {
  return ms > 0n ? new Date(Number(ms)).toISOString() : undefined;
}

/**
 * Turns a Connect error into the client's, its code the server's (`ErrorInfo.reason`) or the status's
 * nearest: an unknown tool → `unknown_tool` with the server's `requested_tool`, `available_tools` and
 * `suggestion`; invalid arguments → `invalid_arguments` with `issues`; DEADLINE_EXCEEDED → `deadline_exceeded`;
 * a cancelled call → the reason it was cancelled with; a connection that failed → `transport`; anything else a
 * `ProtocolError` with the gRPC code in `data.grpcCode`.
 */
function clientErrorOf(error: unknown, ctx: RequestContext, method: string): unknown {
  if (ctx.signal.aborted) return ctx.signal.reason ?? error;
  if (!(error instanceof ConnectError)) return error;
  // The client's own error from below Connect (the auth layer's `unauthenticated` error), which Connect wrapped.
  if (error.cause instanceof McpliteError) return error.cause;
  const message = error.rawMessage;
  const [info] = error.findDetails(ErrorInfoSchema);
  // Connect's own refusal of an answer past `readMaxBytes` (the client's `maxResponseBytes`), not the server's.
  const bound = error.code === Code.ResourceExhausted && info === undefined
    ? /larger than configured readMaxBytes (\d+)/.exec(message)
    : null;
  if (bound !== null) return responseTooLarge(Number(bound[1]), "A gRPC message of the answer");
  const data: Record<string, unknown> = { grpcCode: Code[error.code], ...info?.metadata };
  if (typeof data.available_tools === "string") data.available_tools = data.available_tools.split(",");
  const [bad] = error.findDetails(BadRequestSchema);
  if (bad !== undefined) {
    data.issues = bad.fieldViolations.map((v) => ({
      path: v.field.replace(/^arguments\.?/, ""),
      message: v.description,
    }));
  }
  // The server's code: `ErrorInfo.reason` from a server of ours (domain "mcplite"), else the status's nearest.
  const code = (info?.domain === "mcplite" ? sentErrorCode(info.reason) : undefined) ??
    (method === "tools/call" && error.code === Code.NotFound ? "unknown_tool" : undefined) ??
    (method === "tools/call" && error.code === Code.InvalidArgument ? "invalid_arguments" : undefined) ??
    codeOfGrpcStatus(error.code);
  // Without ErrorInfo, UNAVAILABLE, UNKNOWN and DEADLINE_EXCEEDED are the channel's (a connection that failed, the
  // deadline Connect enforces): the client's own conditions. With it, the server answered: a refusal, as on every wire.
  if (info === undefined && (error.code === Code.Unavailable || error.code === Code.Unknown)) {
    return transportError(message, { data, cause: error });
  }
  if (info === undefined && error.code === Code.DeadlineExceeded) {
    return clientError("deadline_exceeded", message, { data, cause: error });
  }
  // An application's JSON-RPC code (SEP-3415's -32013…), which gRPC carries in ErrorInfo, is the error's as on MCP.
  const rpcCode = code === "custom" ? Number(info?.metadata.jsonrpcCode) : NaN;
  return rpcError(message, { data, cause: error, ...(Number.isSafeInteger(rpcCode) ? { rpcCode } : {}) }, code);
}
