/**
 * HTTP plumbing the JSON-RPC transports share: the fetch and headers options, sending with clean
 * errors, and reading one JSON-RPC reply from a JSON or SSE response.
 *
 * @module
 */
import { rethrowAbort } from "./deadline.ts";
import { madeByClient, McpliteError } from "../errors/error.ts";
import { isTransportError, type RpcErrorBody, rpcErrorOf, transportError } from "./errors.ts";
import { readSseMessages, type SseCursor } from "./read-sse.ts";
import { DEFAULT_MAX_RESPONSE_BYTES, isResponseTooLarge, readBodyStart, readBoundedText } from "./response-bound.ts";
import type { RequestContext, ToolListing } from "./transport.ts";
import { isObject } from "../internal/is-object.ts";
import type { HeadersLike } from "../internal/headers-like.ts";

/** A `fetch` function: the global one, or a server's own (in process), or one that adds auth. */
export type FetchLike = (request: Request) => Response | Promise<Response>;

/** Authorization for a client (`oauth()`, `clientCredentials()`): wraps the fetch every HTTP transport uses. */
export interface ClientAuth {
  /**
   * Wraps a fetch function: requests carry `Authorization: Bearer …`; challenges are answered.
   *
   * @param fetch The fetch function to send through.
   * @returns The authorizing fetch function.
   */
  wrap(fetch: (request: Request) => Response | Promise<Response>): (request: Request) => Response | Promise<Response>;
}

/** Headers sent with every request: fixed, or computed per request (e.g. a fresh bearer token). */
export type HeadersOption = HeadersLike | (() => HeadersLike | Promise<HeadersLike>);

/** How an HTTP transport reaches the server. */
export interface HttpOptions {
  /** The fetch function (default: the global `fetch`): a server's own (in process), or one that adds auth. */
  fetch?: (request: Request) => Response | Promise<Response>;
  /** Extra headers, e.g. `Authorization`: fixed, or computed per request (e.g. a fresh bearer token). */
  headers?: HeadersLike | (() => HeadersLike | Promise<HeadersLike>);
  /** OAuth for protected servers: `oauth({…})` or `clientCredentials({…})`, wrapping `fetch`. */
  auth?: ClientAuth;
  /**
   * The most bytes one answer may hold (default 16 MiB): a JSON body, one SSE event. Past it the read is
   * cancelled and the request fails with `payload_too_large`.
   */
  maxResponseBytes?: number;
}

/**
 * The fetch function a transport sends through: the option's (or the global one), wrapped by `auth`.
 *
 * @param options The transport's HTTP options.
 * @returns The fetch function.
 */
export function fetcherOf(options: HttpOptions): FetchLike {
  const base: FetchLike = options.fetch ?? ((request) => fetch(request));
  return options.auth === undefined ? base : options.auth.wrap(base);
}

/** A JSON-RPC id. */
export type RpcId = string | number;

/** A JSON-RPC reply: the result, or the error with the HTTP status that carried it. */
export type RpcReply =
  | { readonly ok: true; readonly result: Record<string, unknown>; readonly response: Response }
  | { readonly ok: false; readonly error: RpcErrorBody; readonly status: number; readonly response: Response };

/** A message the server sent on the call's SSE stream that is not the reply. */
export type StreamMessage = Record<string, unknown>;

/**
 * Resolves the headers option into a fresh `Headers`.
 *
 * @param option The option.
 * @returns The headers.
 */
export async function baseHeaders(option: HeadersOption | undefined): Promise<Headers> {
  if (option === undefined) return new Headers();
  return new Headers(typeof option === "function" ? await option() : option);
}

/**
 * Sends a request; network failures become `transport` errors, aborts rethrow the signal's reason.
 *
 * @param fetcher The fetch function.
 * @param request The request.
 * @param signal The call's signal.
 * @returns The response.
 */
export async function send(fetcher: FetchLike, request: Request, signal: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetcher(request);
  } catch (error) {
    if (signal.aborted) rethrowAbort(signal, error);
    if (madeByClient(error)) throw error; // e.g. the auth layer's `unauthenticated` error
    throw transportError(`Could not reach ${request.url}: ${messageOf(error)}`, { cause: error });
  }
  if (signal.aborted) {
    await response.body?.cancel().catch(() => {});
    throw signal.reason;
  }
  return response;
}

/**
 * Reads a response body as JSON, within `limit` bytes; anything else is a a `transport` error naming the status.
 *
 * @param response The response.
 * @param signal The call's signal.
 * @param limit The most bytes the body may hold (`maxResponseBytes`).
 * @returns The parsed body.
 * @throws {McpliteError} `payload_too_large` past `limit`; a `transport` error for a broken or non-JSON body.
 */
export async function readJsonBody(
  response: Response,
  signal: AbortSignal,
  limit: number = DEFAULT_MAX_RESPONSE_BYTES,
): Promise<unknown> {
  let text: string;
  try {
    text = await readBoundedText(response, limit, signal);
  } catch (error) {
    if (isResponseTooLarge(error)) rethrowAbort(signal, error);
    rethrowAbort(signal, transportError(`The response body broke off: ${messageOf(error)}`, { cause: error }));
  }
  try {
    return JSON.parse(text);
  } catch {
    throw transportError(
      `Expected JSON from ${response.url || "the server"} (HTTP ${response.status}), got: ${text.slice(0, 200)}`,
      { status: response.status },
    );
  }
}

/**
 * Tells whether a response is an SSE stream.
 *
 * @param response The response.
 * @returns `true` for `text/event-stream`.
 */
export function isEventStream(response: Response): boolean {
  return (response.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream");
}

/**
 * Reads the JSON-RPC reply to request `id` from a response: a JSON body, or an SSE stream that may
 * carry notifications and server requests first (handed to `onMessage`). Resolves `undefined` when a
 * stream ends without the reply (the caller may resume it).
 *
 * @param response The response.
 * @param id The request id.
 * @param ctx The request context.
 * @param cursor Filled with the stream's last event id and retry delay.
 * @param onMessage Receives every other message on the stream.
 * @param limit The most bytes the JSON body, or one event, may hold (`maxResponseBytes`).
 * @returns The reply, or `undefined` when the stream ended first.
 */
export async function readRpcReply(
  response: Response,
  id: RpcId,
  ctx: RequestContext,
  cursor: SseCursor,
  onMessage: (message: StreamMessage) => void | Promise<void>,
  limit: number = DEFAULT_MAX_RESPONSE_BYTES,
): Promise<RpcReply | undefined> {
  if (!isEventStream(response)) {
    const body = await readJsonBody(response, ctx.signal, limit);
    const reply = replyFrom(body, response);
    if (reply === undefined) throw unreadable(response, body);
    return reply;
  }
  if (response.body === null) return undefined;
  try {
    for await (const message of readSseMessages(response.body, cursor, ctx.signal, limit)) {
      const m = message as StreamMessage;
      if (m.id === id && ("result" in m || "error" in m)) return replyFrom(m, response);
      await onMessage(m);
    }
    return undefined;
  } catch (error) {
    rethrowAbort(ctx.signal, isTransportError(error) || isResponseTooLarge(error) ? error : streamBrokeOff(error));
  }
}

/**
 * The error of an SSE answer whose body broke off (a connection reset, a server stopped mid-stream): the transport's
 * failure, which a caller retries or reconnects on, where the runtime's own `TypeError` ("terminated", `ECONNRESET`)
 * would end it. MCP's streams (above) and MCP-lite's (`mcplite-on-demand.ts`) read it alike.
 *
 * @param error What reading the body threw.
 * @returns The `transport` error.
 */
export function streamBrokeOff(error: unknown): McpliteError {
  return transportError(`The event stream broke off: ${messageOf(error)}`, { cause: error });
}

/**
 * Tells whether a response's body is JSON (`application/json`, or a `+json` type).
 *
 * @param response The response.
 * @returns `true` when the content type names JSON.
 */
export function isJsonResponse(response: Response): boolean {
  return (response.headers.get("content-type") ?? "").includes("json");
}

/**
 * Reads a tool list's caching metadata from the response that carried it: `Cache-Control`, `ETag`.
 *
 * @param response The response.
 * @returns The lifetime, scope and entity tag, when the headers say.
 */
export function listingHintOf(response: Response): Omit<ToolListing, "tools" | "notModified"> {
  const hint = cacheHintOf(response.headers);
  const etag = response.headers.get("etag");
  return etag ? { ...hint, etag } : hint;
}

/**
 * Reads a JSON-RPC response object.
 *
 * @param body The parsed message.
 * @param response The HTTP response that carried it.
 * @returns The reply, or `undefined` when the body is no JSON-RPC response.
 */
export function replyFrom(body: unknown, response: Response): RpcReply | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const m = body as Record<string, unknown>;
  if ("error" in m && m.error !== undefined && m.error !== null) {
    return { ok: false, error: rpcErrorOf(m.error), status: response.status, response };
  }
  if ("result" in m && isObject(m.result)) {
    return { ok: true, result: m.result as Record<string, unknown>, response };
  }
  return undefined;
}

/**
 * Builds the error for a response that carries no JSON-RPC reply.
 *
 * @param response The response.
 * @param body Its parsed body.
 * @returns The error.
 */
export function unreadable(response: Response, body: unknown): McpliteError {
  const text = typeof body === "string" ? body : JSON.stringify(body) ?? "";
  return transportError(`Unexpected reply (HTTP ${response.status}): ${text.slice(0, 200)}`, {
    status: response.status,
    data: body,
  });
}

/**
 * Builds the error for a non-2xx response without a JSON-RPC body.
 *
 * @param response The response.
 * @returns The error (the start of the body is read, up to 200 characters, for the message).
 */
export async function httpError(response: Response): Promise<McpliteError> {
  const text = await readBodyStart(response, 1024).catch(() => "");
  // `Retry-After` in seconds (RFC 9110 §10.2.3) becomes `data.retryAfterMs`, as servers' JSON errors say it.
  const seconds = Number(response.headers.get("retry-after") ?? NaN);
  return transportError(`HTTP ${response.status} ${response.statusText}${text ? `: ${text.slice(0, 200)}` : ""}`, {
    status: response.status,
    ...(Number.isFinite(seconds) && seconds >= 0 ? { data: { retryAfterMs: seconds * 1000 } } : {}),
  });
}

/**
 * Reads a caching lifetime from `Cache-Control`: `max-age` in ms, 0 for `no-cache`/`no-store`.
 *
 * @param headers The response headers.
 * @returns The lifetime and scope, when the header says.
 */
export function cacheHintOf(headers: Headers): { ttlMs?: number; cacheScope?: "public" | "private" } {
  const value = headers.get("cache-control");
  if (value === null) return {};
  const hint: { ttlMs?: number; cacheScope?: "public" | "private" } = {};
  for (const part of value.toLowerCase().split(",")) {
    const directive = part.trim();
    if (directive === "public" || directive === "private") hint.cacheScope = directive;
    else if (directive === "no-cache" || directive === "no-store") hint.ttlMs = 0;
    else if (directive.startsWith("max-age=")) {
      const seconds = Number(directive.slice(8));
      if (Number.isFinite(seconds) && seconds >= 0 && hint.ttlMs !== 0) hint.ttlMs = seconds * 1000;
    }
  }
  return hint;
}

/**
 * Gives the message of anything thrown.
 *
 * @param error What was thrown.
 * @returns Its message.
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
