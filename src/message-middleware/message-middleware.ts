/**
 * Message middleware: what sees every JSON-RPC message a peer sends or receives, both ways, on the server (an
 * extension's `.intercept()`; an anonymous one's for an application's own) and on the client
 * (`createClient(…, { intercept })`). Below request middleware (`server.use()`), it sees requests,
 * notifications, results and errors as they travel, may replace or drop them and may answer a request itself
 * (SEP-3371 draft, "Consistent SDK Extension Points"). Why and how: docs/concepts/middleware-and-groups.md.
 *
 * @module
 */

/**
 * A message middleware, Koa style: `(message, info, next)`. Each message passes the middleware in order (on a
 * server: each extension's, in the order the extensions were served with `server.extension()`, an anonymous
 * extension's, `defineExtension().intercept()`, too), as a parsed JSON-RPC object.
 *
 * - `next(message?)` hands the message (or a replacement) on: to the next middleware, and at the end to the SDK
 *   (`info.direction` `"in"`) or to the wire (`"out"`). It resolves once they took it, not once a request is
 *   answered: the response is a message of its own, whose `info.method` names the request it answers. It resolves
 *   with the response a later middleware answered the request with, if one did.
 * - Not calling `next` drops the message. Returning a JSON-RPC response (`{ jsonrpc: "2.0", id, result }` or
 *   `{ …, error }`) without calling `next` answers an incoming request (`"in"`, with an `id` and a `method`): the
 *   SDK never handles it, and the response goes out through the outgoing middleware. An incoming request dropped
 *   without an answer gets none (over HTTP: 202 and no body). What is returned otherwise is ignored.
 * - A middleware that throws: an incoming request is answered with a JSON-RPC internal error (-32603; a thrown
 *   `ProtocolError` answers with its own code); an incoming
 *   response becomes an internal error for the request it answers; an incoming notification is dropped. On the
 *   server, an outgoing response becomes an internal error, an outgoing request (a 2025 elicitation, sampling or
 *   roots request) fails its asker as if the client had answered with an internal error, an outgoing notification
 *   is dropped; each error goes to the server's `onError`, and the server keeps serving. On the client, the request
 *   whose message failed going out fails (a transport error whose `cause` is the middleware's error).
 *
 * The messages of one connection (stdio, a WebSocket) and of one HTTP response pass one at a time in each
 * direction, in order. Over HTTP, `info.transport` is `"http"` for a POST's message and a JSON answer, `"sse"` for
 * what an event stream carries. MCP-lite over HTTP, gRPC and Webtools carry no JSON-RPC messages: no middleware
 * runs there (over stdio and a WebSocket, MCP-lite's JSON-RPC messages pass it too).
 *
 * @param message The message: a request (`id`, `method`, `params`), a notification (`method`, `params`) or a
 *   response (`id`, and `result` or `error`).
 * @param info Its direction, the transport, and its method (for a response: the method of the request it answers,
 *   when known).
 * @param next Hands the message (by default the same) on.
 * @returns Nothing; or, for an incoming request, the response that answers it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { MessageMiddleware } from "../types.ts";
 * const seen: string[] = [];
 * const log: MessageMiddleware = async (message, info, next) => {
 *   seen.push(`${info.direction} ${info.method}`);
 *   await next();
 * };
 * const ping: MessageMiddleware = (message, info, next) =>
 *   info.direction === "in" && message.method === "ping" ? { jsonrpc: "2.0", id: message.id, result: {} } : next();
 * assert.equal(typeof log, "function");
 * assert.equal(typeof ping, "function");
 * ```
 */
export type MessageMiddleware = (
  message: Readonly<Record<string, unknown>>,
  info: {
    /** `"in"`: the message arrived from the peer; `"out"`: it goes to the peer. */
    readonly direction: "in" | "out";
    /** What carries it. */
    readonly transport: "http" | "sse" | "stdio" | "websocket";
    /** The message's method; for a response, the method of the request it answers (when known). */
    readonly method?: string;
  },
  next: (message?: Readonly<Record<string, unknown>>) => Promise<Readonly<Record<string, unknown>> | undefined>,
) => unknown;
