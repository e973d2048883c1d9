/**
 * A remote's notifications heard over HTTP without the client's help: the proxy's `fetch` reads a copy
 * of each `GET` event stream (the MCP 2025 standalone stream, MCP 2025-11-25, Transports: Streamable
 * HTTP) and of each `subscriptions/listen` stream (MCP 2026-07-28), where a server sends `list_changed`.
 *
 * @module
 */
import { type FetchLike, isEventStream } from "../client/http.ts";
import { readSseMessages, type SseCursor } from "../client/read-sse.ts";
import type { NoticeListener } from "../client/transports/server-notices.ts";
import { isObject } from "../internal/is-object.ts";
import { METHOD_HEADER } from "../internal/mcp-wire.ts";

/**
 * Wraps a `fetch` so that the notifications on the event streams it opens with `GET`, or with a
 * `subscriptions/listen` request, are heard too.
 *
 * @param base The fetch to wrap (default: the global one).
 * @param heard Receives each notification.
 * @returns The wrapped fetch; the client reads the responses as before.
 */
export function noticeFetch(base: FetchLike | undefined, heard: NoticeListener): FetchLike {
  const send: FetchLike = base ?? ((request) => fetch(request));
  return async (request) => {
    const response = await send(request);
    const listens = request.method === "GET" || request.headers.get(METHOD_HEADER) === LISTEN;
    if (!listens || !response.ok || !isEventStream(response) || response.body === null) {
      return response;
    }
    const [mine, theirs] = response.body.tee();
    void hear(mine, request.signal, heard);
    const { status, statusText, headers } = response;
    return new Response(theirs, { status, statusText, headers });
  };
}

/** The MCP 2026-07-28 method whose stream carries a server's notifications. */
export const LISTEN = "subscriptions/listen";

async function hear(body: ReadableStream<Uint8Array>, signal: AbortSignal, heard: NoticeListener): Promise<void> {
  const cursor: SseCursor = { lastEventId: undefined, retryMs: undefined };
  try {
    for await (const message of readSseMessages(body, cursor, signal)) {
      // A notification has a method and no id (JSON-RPC 2.0 §4.1); requests are the client's to answer.
      if (!isObject(message) || typeof message.method !== "string" || "id" in message) continue;
      heard(message.method, isObject(message.params) ? message.params as Record<string, unknown> : {});
    }
  } catch {
    // the stream ended or broke: the client opens another, which is heard in turn
  }
}
