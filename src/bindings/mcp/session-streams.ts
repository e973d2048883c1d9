/**
 * `sessionStreams()`: what a 2025 session held in one process serves over HTTP, as a value `mcpBinding({
 * sessionStreams })` is given (layers over the binding's route), so that a stateless server bundles none of it: a
 * `GET` opens a session's stream (`session-stream.ts`), `resources/subscribe` subscribes the session, `initialize`
 * advertises `subscribe` and `listChanged`; with `polling`, its calls' streams are resumable (`resumable.ts`).
 * Without it, a 2025 `resources/subscribe` over HTTP is refused (`resources.ts`).
 *
 * @module
 */
import { type AuthInfo, callerKey } from "../../core/mod.ts";
import { ProtocolError } from "../../errors/error.ts";
import { acceptsEventStream, type Capability, capability, type Host, type Route } from "../../server/mod.ts";
import { errorMessage } from "../jsonrpc.ts";
import { wireErrorResponse } from "../jsonrpc-error.ts";
import { type LegacySession, MODERN_VERSION, PROTOCOL_VERSION_HEADER, SESSION_HEADER } from "./envelope.ts";
import type { McpContext, McpRequest } from "./mcp-request.ts";
import { SessionStream } from "./session-stream.ts";
import { ResumableStreams } from "./resumable.ts";
import { pollingSettings, type SsePollingOptions } from "./sse-polling.ts";

/** What `sessionStreams()` is to the binding: given the binding and its route, the route with the streams. */
export type StreamsSupport = (ctx: McpContext, route: Route) => Route;

/**
 * The most resources one 2025 session subscribes to over HTTP: each is watched (a proxied one at its remote) for as
 * long as the session lives in the table, and a template answers any number of URIs.
 */
export const MAX_SUBSCRIPTIONS = 1_000;

/** The options of `sessionStreams()`. */
export interface SessionStreamsOptions {
  /**
   * SSE polling of 2025-11-25 calls (MCP 2025-11-25, Transports: "Resumability and Redelivery"; SEP-1699), for hosts
   * and proxies that cut long responses: a call answered as an SSE stream opens it with a priming event (an event
   * id, `retry: retryMs`, empty data), gives each event an id, and closes the connection `closeAfterMs` after it
   * opened while the call runs on; the client comes back after `retryMs` with a GET carrying `Last-Event-ID`, and
   * gets what it missed, then the rest (closed again after `closeAfterMs`), the result last. A client that does not
   * come back within ten `retryMs` (at least 30 s) has its call aborted. Other revisions are not affected. Default:
   * off.
   */
  readonly polling?: SsePollingOptions;
}

/**
 * What a 2025 session held in this process serves over HTTP, for `mcpBinding({ sessionStreams: sessionStreams() })`.
 * Its own stream (MCP 2025-11-25, Transports, Streamable HTTP: "Listening for Messages from the Server"): a `GET`
 * with `Accept: text/event-stream` and the session's `Mcp-Session-Id` opens it, and it carries
 * `notifications/resources/updated` for what the session subscribed to (`resources/subscribe`, at most 1,000
 * resources), the list changes, and, after `logging/setLevel`, the logs sent outside any call; `initialize` then
 * advertises `resources.subscribe` and `listChanged`. With `polling`, its calls' SSE streams are resumable. Both
 * need the session's requests on one instance (route them by `Mcp-Session-Id`), hence one value. Without it the
 * server stays stateless: a 2025 `resources/subscribe` over HTTP is refused (-32601), a `GET` is 405. The value
 * brings its code: a server without it bundles none.
 *
 * @param options SSE polling, if wanted.
 * @returns The streams (opaque: `mcpBinding({ sessionStreams })` takes it as it is).
 * @throws {TypeError} When `polling.closeAfterMs` is not a whole number of ms ≥ 1, or `polling.retryMs` one ≥ 0
 *   (both below 2³¹).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer, mcpBinding, sessionStreams } from "../../../mod.ts";
 * const server = createServer({
 *   name: "subscribable",
 *   version: "1.0.0",
 *   bindings: [mcpBinding({ sessionStreams: sessionStreams({ polling: { closeAfterMs: 25_000, retryMs: 1_000 } }) })],
 * });
 * // A GET stream belongs to a 2025 session: without its Mcp-Session-Id, a 400.
 * const get = await server.fetch(new Request("http://localhost/mcp", { headers: { accept: "text/event-stream" } }));
 * assert.equal(get.status, 400);
 * ```
 */
export function sessionStreams(options: SessionStreamsOptions = {}): Capability<"sessionStreams"> {
  const polling = options.polling && pollingSettings(options.polling);
  // Polling over the streams: a GET with Last-Event-ID resumes a call's stream, any other is the session's.
  const support: StreamsSupport = (ctx, route) => {
    const streamed = new SessionStreams(ctx).serve(route);
    return polling ? new ResumableStreams(polling, ctx).serve(streamed) : streamed;
  };
  return capability("sessionStreams", support);
}

/**
 * The streams of one binding's 2025 sessions, each made when its session first needs it, and ended by its `DELETE`,
 * or, past the session table's bound, oldest first (a session the table evicted has its stream until then: its
 * client, who alone may open it, still hears its updates).
 */
export class SessionStreams {
  readonly #ctx: McpContext;
  /** Who opened each session (`callerKey()` of its `initialize`'s principal): only they may use its stream. */
  readonly #openers = new WeakMap<LegacySession, string | undefined>();
  /** The sessions' streams, oldest first: no more than the table holds sessions. */
  readonly #streams = new Map<LegacySession, SessionStream>();

  /**
   * Serves a binding's sessions: its subscriptions come here (`McpContext.streams`).
   *
   * @param ctx The binding.
   */
  constructor(ctx: McpContext) {
    this.#ctx = ctx;
    ctx.streams = this;
  }

  /**
   * Serves the binding's route with the streams: a `GET` that asks for an event stream opens its session's; an
   * `initialize` records who opened the session. The route answers the rest as before (a `GET` of a session that
   * ended: 404; one that does not ask for an event stream, or names 2026-07-28 or later: 405).
   *
   * @param route The binding's route.
   * @returns The route, answering GET too.
   */
  serve(route: Route): Route {
    const { handle } = route;
    return {
      ...route,
      methods: "GET, POST, DELETE",
      handle: (http, host) => {
        if (http.method === "GET") return this.#get(http, host) ?? handle(http, host);
        if (http.method === "DELETE") {
          // MCP 2025-11-25, Transports: Session Management: a DELETE ends the session, and with it its stream.
          const session = this.#ctx.sessions.get(http.headers.get(SESSION_HEADER));
          if (session !== undefined) this.#end(session);
        }
        const answered = handle(http, host);
        // `initialize` is the request without a session whose answer issues one.
        if (http.method !== "POST" || http.headers.has(SESSION_HEADER)) return answered;
        const opened = (response: Response) => {
          const session = this.#ctx.sessions.get(response.headers.get(SESSION_HEADER));
          if (session !== undefined) this.#openers.set(session, callerKey(host.auth, null));
          return response;
        };
        return answered instanceof Promise ? answered.then(opened) : opened(answered);
      },
    };
  }

  /**
   * Follows a 2025 `resources/subscribe` or `resources/unsubscribe` over HTTP, for a resource the caller may read:
   * the subscription is the session's (MCP 2025-11-25, Transports: Session Management), its updates go out on the
   * session's stream.
   *
   * @param request The request.
   * @throws {ProtocolError} `invalid_request` without a session this instance knows and the caller opened (nothing
   *   could carry the updates), or past {@link MAX_SUBSCRIPTIONS}.
   */
  subscribe(request: McpRequest): void {
    const { method } = request.rpc, id = request.session, auth = request.host.auth;
    const session = this.#own(id, auth);
    if (session === undefined) {
      throw new ProtocolError(
        "invalid_request",
        `Invalid Request: ${method} over HTTP needs the Mcp-Session-Id that initialize issued on this server ` +
          `instance: updates go out on that session's GET stream${
            id === null ? "" : ", and this session is unknown here"
          }`,
      );
    }
    const stream = this.#streamOf(id!, session, auth);
    if (method === "resources/subscribe" && stream.subscriptions >= MAX_SUBSCRIPTIONS) {
      throw new ProtocolError(
        "invalid_request",
        `Invalid Request: a session subscribes to at most ${MAX_SUBSCRIPTIONS} resources; unsubscribe from some first`,
      );
    }
    stream.follow(request);
  }

  /**
   * Answers a `GET` that asks for an event stream: its session's stream. Refused with 400 without a session id and
   * 404 for a session unknown here (another instance's, evicted, ended, or another principal's), as MCP 2025-11-25's
   * Session Management says; `undefined` (the route's 405) for a request of 2026-07-28 or later, which has no `GET`.
   */
  #get(http: Request, host: Host): Response | undefined {
    const version = http.headers.get(PROTOCOL_VERSION_HEADER);
    if (!acceptsEventStream(http) || version !== null && version >= MODERN_VERSION) return undefined;
    const id = http.headers.get(SESSION_HEADER);
    if (id === null) {
      const message = "Bad Request: a GET stream belongs to a 2025 session; send the Mcp-Session-Id initialize issued";
      return wireErrorResponse(errorMessage(null, -32600, message), 400);
    }
    const session = this.#own(id, host.auth);
    if (session === undefined) {
      return wireErrorResponse(errorMessage(null, -32600, "Session not found on this server instance"), 404);
    }
    return this.#streamOf(id, session, host.auth).open();
  }

  /** Ends a session's stream, if it has one (its `DELETE`, or the bound). */
  #end(session: LegacySession): void {
    this.#streams.get(session)?.close();
    this.#streams.delete(session);
  }

  /** The session a request may use: known here, and opened by the same principal (an id alone proves nothing). */
  #own(id: string | null, auth: AuthInfo | undefined): LegacySession | undefined {
    const session = this.#ctx.sessions.get(id);
    const opened = session !== undefined && this.#openers.has(session);
    return opened && this.#openers.get(session) === callerKey(auth, null) ? session : undefined;
  }

  /** A session's stream, made when first needed. */
  #streamOf(id: string, session: LegacySession, auth: AuthInfo | undefined): SessionStream {
    const streams = this.#streams;
    let stream = streams.get(session);
    if (stream !== undefined) return stream;
    if (streams.size >= this.#ctx.settings.sessionLimit) this.#end(streams.keys().next().value!);
    streams.set(session, stream = new SessionStream(this.#ctx, id, session, auth));
    return stream;
  }
}
