/**
 * Response headers and inits that every binding shares, built once: a response copies them.
 *
 * @module
 */
import { copiedHeaders, JSON_LABEL_HAS_CHARSET } from "../runtime/bun/response-forms.ts";

/** Response headers for JSON bodies; `Response` copies them, so one object serves every response. */
export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "application/json",
});

/**
 * Builds, once, a response init to share between responses, its headers in the form the runtime copies
 * fastest (`src/runtime/bun/response-forms.ts`).
 *
 * @param headers The headers.
 * @param status The status; 200 by default.
 * @returns The init.
 */
export function responseInit(headers: Readonly<Record<string, string>>, status = 200): ResponseInit {
  return Object.freeze({ status, headers: copiedHeaders(headers) });
}

/**
 * Builds, once, the init of 200 JSON responses that carry more headers (an `ETag`, `Cache-Control`).
 *
 * @param headers Headers besides `Content-Type`.
 * @returns The init, to share between responses.
 */
export function jsonInit(headers: Readonly<Record<string, string>> = {}): ResponseInit {
  return responseInit({ ...JSON_HEADERS, ...headers });
}

/** The init of a 200 response with a serialised JSON body, shared by every such answer. */
export const JSON_INIT: ResponseInit = jsonInit();

/**
 * The init of `Response.json(value, JSON_VALUE_INIT)`, the cheapest JSON answer on every runtime.
 * Deno, Node and Workers already label it `application/json`; Bun says `application/json;charset=utf-8`
 * unless told, so it gets the header and the wire reads the same everywhere.
 */
export const JSON_VALUE_INIT: ResponseInit | undefined = JSON_LABEL_HAS_CHARSET ? JSON_INIT : undefined;

/**
 * The headers of an error response, closed after a 408 or a 413: a sender too slow to finish its body,
 * or one refused for its size, does not keep the connection it may still be sending on (RFC 9110
 * §15.5.9 and §15.5.14, RFC 9112 §9.6 `Connection: close`).
 *
 * @param status The response's status.
 * @param headers Its headers.
 * @returns The headers, with `Connection: close` after a 408 or a 413.
 */
export function errorHeaders(
  status: number,
  headers: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  return status === 408 || status === 413 ? { ...headers, connection: "close" } : headers;
}

/** Response headers for SSE bodies. */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
});

/** The mark of an answer that streams (SSE), on the answer: a call holds its budget until it ends (`budgets.ts`). */
const STREAM = /* @__PURE__ */ Symbol();

/**
 * An SSE answer (`text/event-stream`), known as one to the server's budgets without reading its headers
 * (a `Response`'s headers are made on first read, a cost on every answer).
 *
 * @param body The event stream.
 * @returns The answer.
 */
export function sseResponse(body: ReadableStream<Uint8Array>): Response {
  return streamingResponse(new Response(body, { headers: SSE_HEADERS }));
}

/**
 * Marks an answer that streams (SSE, or a Connect or gRPC-Web server stream) for the server's budgets: its call is
 * held until the stream ends.
 *
 * @param response The answer.
 * @returns The same answer, marked.
 */
export function streamingResponse(response: Response): Response {
  (response as { [STREAM]?: true })[STREAM] = true;
  return response;
}

/**
 * Whether an answer streams: made by {@link sseResponse}, or marked by {@link streamingResponse}.
 *
 * @param response The answer.
 * @returns Whether it is an SSE stream.
 */
export function isSseResponse(response: Response): boolean {
  return STREAM in response;
}
