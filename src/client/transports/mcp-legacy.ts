/**
 * The 2025-era MCP session over Streamable HTTP: the `initialize` handshake, `Mcp-Session-Id`, the
 * standalone `GET` stream for messages the server sends outside a request's stream, server→client
 * requests answered by POSTing the response back, and a stream that closes before its reply resumed
 * with `GET` + `Last-Event-ID` after the server's `retry` delay (SEP-1699).
 *
 * @module
 */
import { isObject } from "../../internal/is-object.ts";
import { McpliteError } from "../../errors/error.ts";
import { sleep } from "../../internal/sleep.ts";
import { errorFromRpc, rpcError, transportError } from "../errors.ts";
import { httpError, isEventStream, isJsonResponse, readRpcReply, type RpcId, type StreamMessage } from "../http.ts";
import { HttpEndpoint } from "../http-endpoint.ts";
import { quietContext } from "../quiet-context.ts";
import { sendTraced, withTraceHeaders, withTraceMeta } from "../carry-trace.ts";
import { readSseMessages, type SseCursor } from "../read-sse.ts";
import { replyFromMcp, replyFromTaskAugmented } from "../read-result.ts";
import type { InputRequest, Reply, RequestContext } from "../transport.ts";
import { answerError } from "./answer-error.ts";
import { handleStreamMessage, streamMetaOf, TASKS_EXTENSION } from "./mcp-client-wire.ts";
import { PARTIAL_NOTIFICATION } from "../../internal/mcp-wire.ts";
import { SseConnection } from "./sse-connection.ts";

/** How many resumptions in a row that bring no event a stream gets (a standalone one: how many in all). */
const MAX_RESUMES = 5;
/** The wait before resuming when the server gave no `retry`. */
const DEFAULT_RETRY_MS = 1000;

/** A result and the response that carried it. */
export interface Exchanged {
  /** The JSON-RPC result. */
  readonly result: Record<string, unknown>;
  /** The HTTP response (its headers: `ETag`, `Cache-Control`). */
  readonly response: Response;
}

/** The requests' URL over an HTTP+SSE connection: a placeholder, nothing is fetched there. */
const OVER_SSE = "http://sse.invalid/mcp";
/** How long an HTTP+SSE stream may take to name its endpoint. */
const ENDPOINT_WAIT_MS = 10_000;

/**
 * One 2025-era session with one server: over Streamable HTTP, or over MCP 2024-11-05's HTTP+SSE transport for
 * a server whose URL refuses the `initialize` POST with a 4xx and answers a GET with its event stream (MCP
 * 2025-03-26, Transports, Backwards Compatibility). A stream that ended is opened again, with a new session, on
 * the next request.
 */
export class LegacySession {
  /** The server's URL, as given. */
  readonly #given: HttpEndpoint;
  /** Where requests go: the URL given, or the HTTP+SSE connection's `fetch`. */
  #http: HttpEndpoint;
  /** The HTTP+SSE connection, for a server on that transport. */
  #sse: SseConnection | undefined;
  readonly #requested: string;
  readonly #nextId: () => number;
  #opening: Promise<void> | undefined;
  #sessionId: string | undefined;
  #version: string | undefined;
  /** Stops the standalone stream. */
  #listening: AbortController | undefined;
  /** The requests in flight, with their progress tokens: server messages on the standalone stream go to them. */
  readonly #inflight = new Map<RequestContext, string | undefined>();
  /** The server's `initialize` result. */
  initializeResult: Record<string, unknown> | undefined;

  /**
   * Creates a session; it opens on the first request.
   *
   * @param http The MCP endpoint.
   * @param requested The revision to ask for in `initialize`.
   * @param nextId Hands out JSON-RPC ids.
   */
  constructor(http: HttpEndpoint, requested: string, nextId: () => number) {
    this.#given = this.#http = http;
    this.#requested = requested;
    this.#nextId = nextId;
  }

  /**
   * Calls a tool, as a task when it must be one (MCP 2025-11-25, Tasks: tool-level negotiation): the
   * client handles tasks, the server declares `tasks.requests.tools.call`, and the tool requires it. An
   * `optional` tool is called plainly, which answers sooner.
   *
   * @param params The `tools/call` params.
   * @param ctx The request context.
   * @param taskRequired The listed tools that run only as tasks (listing them first if need be).
   * @returns The reply.
   */
  async callTool(
    params: Record<string, unknown>,
    ctx: RequestContext,
    taskRequired: () => Promise<ReadonlySet<string> | undefined>,
  ): Promise<Reply> {
    await this.open(ctx); // the server's capabilities decide, so a first call opens the session first
    const augmented = await this.#augments(params.name as string, ctx, taskRequired);
    // No ttl: the server keeps the task as long as it sees fit.
    const { result } = await this.request("tools/call", augmented ? { ...params, task: {} } : params, ctx);
    return augmented ? replyFromTaskAugmented(result) : replyFromMcp(result);
  }

  async #augments(
    name: string,
    ctx: RequestContext,
    taskRequired: () => Promise<ReadonlySet<string> | undefined>,
  ): Promise<boolean> {
    if (!isObject(ctx.capabilities.extensions) || ctx.capabilities.extensions[TASKS_EXTENSION] === undefined) {
      return false;
    }
    const server = this.initializeResult?.capabilities;
    const requests = isObject(server) && isObject(server.tasks) ? server.tasks.requests : undefined;
    if (!isObject(requests) || !isObject(requests.tools) || !isObject(requests.tools.call)) return false;
    return (await taskRequired())?.has(name) === true;
  }

  /**
   * Sends a request in the session, opening it first if needed; a session the server forgot (see
   * {@link isSessionGone}) is opened again once.
   *
   * @param method The method.
   * @param params The params.
   * @param ctx The request context.
   * @param extra Extra request headers (e.g. `If-None-Match`).
   * @returns The result.
   */
  async request(
    method: string,
    params: Record<string, unknown>,
    ctx: RequestContext,
    extra?: Headers,
  ): Promise<Exchanged> {
    await this.open(ctx);
    if (ctx.notification) { // an extension's notification (SEP-2133): no id, no reply
      const response = await this.#post({ jsonrpc: "2.0", method, params }, ctx.signal);
      if (!response.ok) throw transportError(`The server refused ${method}: HTTP ${response.status}`, response);
      return { result: {}, response };
    }
    try {
      return await this.#exchange(method, params, ctx, extra);
    } catch (error) {
      if (!isSessionGone(error) || this.#sessionId === undefined) throw error;
      this.#opening = undefined;
      this.#sessionId = undefined;
      await this.open(ctx);
      return await this.#exchange(method, params, ctx, extra);
    }
  }

  /** Ends the session (`DELETE`); a server that does not allow it (405) is fine. */
  async close(): Promise<void> {
    this.#listening?.abort();
    this.#listening = undefined;
    const sessionId = this.#sessionId;
    this.#opening = undefined;
    this.#sessionId = undefined;
    this.#sse?.close(); // ends an HTTP+SSE session: it has no DELETE
    if (sessionId === undefined) return;
    const headers = await this.#requestHeaders(sessionId);
    const signal = AbortSignal.timeout(5000);
    await Promise.resolve(this.#http.fetch(new Request(this.#http.url, { method: "DELETE", headers, signal })))
      .then((response) => response.body?.cancel())
      .catch(() => {});
  }

  /**
   * Opens the session (`initialize`, then `notifications/initialized`), once.
   *
   * @param ctx The request context.
   * @returns When the session is open and {@link LegacySession.initializeResult} is known.
   */
  open(ctx: RequestContext): Promise<void> {
    if (this.#sse?.ended) { // the server's HTTP+SSE stream ended (it restarted): find it again at the URL given
      this.#sse = undefined;
      this.#http = this.#given;
      this.#opening = undefined;
      this.#version = undefined;
    }
    this.#opening ??= this.#initialize(ctx).catch((error) => {
      this.#opening = undefined;
      throw error;
    });
    return this.#opening;
  }

  async #initialize(ctx: RequestContext): Promise<void> {
    // The tasks extension is 2026-07-28's (the 2025 revisions declare `tasks`); any other extension the
    // client declares goes in `initialize` too, as the official SDKs send it (SEP-2133, Negotiation).
    const { extensions, ...capabilities } = ctx.capabilities;
    const { [TASKS_EXTENSION]: _, ...declared } = isObject(extensions) ? extensions : {};
    if (Object.keys(declared).length > 0) capabilities.extensions = declared;
    const params = { protocolVersion: this.#requested, capabilities, clientInfo: ctx.clientInfo };
    let exchanged: Exchanged;
    try {
      exchanged = await this.#exchange("initialize", params, quietContext(ctx));
    } catch (error) {
      if (!(await this.#overSse(error))) throw error;
      exchanged = await this.#exchange("initialize", params, quietContext(ctx));
    }
    const { result, response } = exchanged;
    const version = result.protocolVersion;
    if (typeof version !== "string" || version === "") {
      throw rpcError("The initialize result has no protocolVersion", { data: result });
    }
    this.#version = version;
    this.#sessionId = response.headers.get("mcp-session-id") ?? undefined;
    this.initializeResult = result;
    const headers = await this.#requestHeaders(this.#sessionId);
    const body = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
    const ack = await this.#http.post("", headers, body, ctx.signal);
    await ack.body?.cancel().catch(() => {});
    if (!ack.ok) {
      throw transportError(`notifications/initialized was refused: HTTP ${ack.status}`, { status: ack.status });
    }
    // Only a client that can answer server requests needs the standalone stream; an open stream also
    // keeps the process alive until close().
    const answers = ["elicitation", "sampling", "roots"].some((key) => key in capabilities);
    if (answers) await this.#listen();
  }

  /**
   * After `initialize` was refused with a 4xx at the URL given: whether the URL is the event stream of MCP
   * 2024-11-05's HTTP+SSE transport, which requests then go over. Never for a refusal of the credentials.
   */
  async #overSse(error: unknown): Promise<boolean> {
    const status = error instanceof McpliteError ? error.status : undefined;
    if (this.#http !== this.#given || status === undefined || status < 400 || status >= 500) return false;
    if (status === 401 || status === 403) return false;
    try {
      this.#sse = await SseConnection.open(this.#given, ENDPOINT_WAIT_MS);
    } catch {
      return false; // not that transport either: the refusal stands
    }
    const fetch = this.#sse.fetch;
    this.#http = new HttpEndpoint(OVER_SSE, { fetch, maxResponseBytes: this.#given.maxResponseBytes });
    return true;
  }

  /**
   * Opens the standalone `GET` stream, waiting for its headers so that nothing the server sends there
   * is missed (the 2025 servers send requests they make outside a call's stream there); then reads it
   * in the background until `close()`. A server without one (405) is fine.
   */
  async #listen(): Promise<void> {
    this.#listening?.abort();
    const controller = new AbortController();
    this.#listening = controller;
    const cursor: SseCursor = { lastEventId: undefined, retryMs: undefined };
    let response = await this.#get(cursor, controller.signal);
    if (response === undefined) return;
    void (async () => {
      for (let reconnects = 0; response !== undefined && reconnects <= MAX_RESUMES; reconnects++) {
        try {
          const limit = this.#http.maxResponseBytes;
          for await (const message of readSseMessages(response.body!, cursor, controller.signal, limit)) {
            await this.#onStandalone(message as StreamMessage);
          }
        } catch {
          // the stream broke: resume it below, as after a clean end
        }
        if (controller.signal.aborted || cursor.lastEventId === undefined) return;
        await sleep(cursor.retryMs ?? DEFAULT_RETRY_MS, controller.signal).catch(() => {});
        if (controller.signal.aborted) return;
        response = await this.#get(cursor, controller.signal);
      }
    })();
  }

  async #get(cursor: SseCursor, signal: AbortSignal): Promise<Response | undefined> {
    const headers = await this.#requestHeaders(this.#sessionId);
    headers.set("accept", "text/event-stream");
    headers.delete("content-type");
    if (cursor.lastEventId !== undefined) headers.set("last-event-id", cursor.lastEventId);
    try {
      const response = await this.#http.fetch(new Request(this.#http.url, { method: "GET", headers, signal }));
      if (response.ok && isEventStream(response)) return response;
      await response.body?.cancel().catch(() => {});
    } catch {
      // no standalone stream: requests' own streams still work
    }
    return undefined;
  }

  /** Hands a message from the standalone stream to the requests in flight (the newest answers requests). */
  async #onStandalone(message: StreamMessage): Promise<void> {
    const contexts = [...this.#inflight];
    const isRequest = typeof message.method === "string" &&
      (typeof message.id === "string" || typeof message.id === "number");
    if (isRequest) {
      const newest = contexts.at(-1)?.[0];
      const params = (message.params ?? {}) as Record<string, unknown>;
      if (newest !== undefined) {
        await this.#answer(message.id as RpcId, message.method as string, params, newest).catch(() => {});
      } else {await this.#post({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: -32603, message: "No request in flight" },
        }).catch(() => {});}
      return;
    }
    // A completion, as any notification the client hears (an extension's), is the client's, not a call's: told
    // once; progress and logs go to the calls they name.
    const once =
      ["notifications/progress", "notifications/message", PARTIAL_NOTIFICATION].includes(message.method as string)
        ? contexts
        : contexts.slice(0, 1);
    for (const [ctx, token] of once) await handleStreamMessage(message, ctx, token);
  }

  async #requestHeaders(sessionId: string | undefined): Promise<Headers> {
    const headers = await this.#http.headers({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    });
    if (sessionId !== undefined) headers.set("mcp-session-id", sessionId);
    if (this.#version !== undefined) headers.set("mcp-protocol-version", this.#version);
    return headers;
  }

  #exchange(
    method: string,
    params: Record<string, unknown>,
    ctx: RequestContext,
    extra?: Headers,
  ): Promise<Exchanged> {
    const id = this.#nextId();
    const request = {
      method,
      params,
      id,
      protocolVersion: this.#version ?? this.#requested,
      sessionId: this.#sessionId,
      peer: this.#given.peer,
    };
    return sendTraced(ctx, request, (sent) => this.#send(id, method, params, sent, extra));
  }

  /** Sends one request in the session and reads its reply. */
  async #send(
    id: number,
    method: string,
    params: Record<string, unknown>,
    ctx: RequestContext,
    extra?: Headers,
  ): Promise<Exchanged> {
    const { progressToken, meta } = streamMetaOf(ctx, id);
    const traced = withTraceMeta(params, ctx);
    const sent = progressToken === undefined
      ? traced
      : { ...traced, _meta: { ...(traced._meta as Record<string, unknown> | undefined), ...meta } };
    const headers = withTraceHeaders(await this.#requestHeaders(this.#sessionId), ctx);
    extra?.forEach((value, key) => headers.set(key, value));
    const body = JSON.stringify({ jsonrpc: "2.0", id, method, params: sent });
    // Registered before sending: a server may send its requests on the standalone stream before it
    // answers this POST at all.
    this.#inflight.set(ctx, progressToken);
    // MCP 2025-11-25, Cancellation: a disconnection is not a cancellation, so the server is told.
    const cancel = () =>
      void this.#post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } }).catch(() => {});
    ctx.signal.addEventListener("abort", cancel, { once: true });
    try {
      const response = await this.#http.post("", headers, body, ctx.signal);
      if (response.status === 304) return { result: {}, response };
      if (!response.ok && !isJsonResponse(response)) throw await httpError(response);
      const cursor: SseCursor = { lastEventId: undefined, retryMs: undefined };
      const onMessage = (message: StreamMessage) =>
        handleStreamMessage(message, ctx, progressToken, (rid, m, p) => this.#answer(rid, m, p, ctx));
      return await this.#read(method, response, id, ctx, cursor, onMessage);
    } finally {
      ctx.signal.removeEventListener("abort", cancel);
      this.#inflight.delete(ctx);
    }
  }

  /** Reads the reply, resuming a stream that ends first. */
  async #read(
    method: string,
    first: Response,
    id: RpcId,
    ctx: RequestContext,
    cursor: SseCursor,
    onMessage: (message: StreamMessage) => Promise<void>,
  ): Promise<Exchanged> {
    let response = first;
    let reply = await readRpcReply(response, id, ctx, cursor, onMessage, this.#http.maxResponseBytes);
    // A server that polls (SEP-1699) closes each connection while the call runs, and the client comes back for as
    // long as it takes: only resumed connections that bring no event at all count towards the bound.
    for (let idle = 0; reply === undefined;) {
      if (!isEventStream(response) || cursor.lastEventId === undefined || idle >= MAX_RESUMES) {
        throw transportError(`The ${method} stream ended before its response`, { status: response.status });
      }
      await sleep(cursor.retryMs ?? DEFAULT_RETRY_MS, ctx.signal);
      const resume = await this.#requestHeaders(this.#sessionId);
      resume.set("accept", "text/event-stream");
      resume.delete("content-type");
      resume.set("last-event-id", cursor.lastEventId);
      response = await this.#http.get("", resume, ctx.signal);
      if (!response.ok) throw await httpError(response);
      const before = cursor.lastEventId;
      cursor.lastEventId = undefined;
      reply = await readRpcReply(response, id, ctx, cursor, onMessage, this.#http.maxResponseBytes);
      idle = cursor.lastEventId === undefined ? idle + 1 : 0;
      cursor.lastEventId ??= before;
    }
    ctx.activity();
    if (!reply.ok) throw errorFromRpc(reply.error, { method, wire: "mcp", status: reply.status });
    return { result: reply.result, response };
  }

  /** Answers a server→client request through the user's handlers, POSTing the response back. */
  async #answer(id: RpcId, method: string, params: Record<string, unknown>, ctx: RequestContext): Promise<void> {
    let message: Record<string, unknown>;
    try {
      // An unknown method is answered with an error by the input handlers.
      const result = method === "ping" ? {} : await ctx.answer({ method: method as InputRequest["method"], params });
      message = { jsonrpc: "2.0", id, result };
    } catch (error) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      message = { jsonrpc: "2.0", id, error: answerError(error) };
    }
    const response = await this.#post(message, ctx.signal);
    if (!response.ok) throw transportError(`The server refused the answer to ${method}: HTTP ${response.status}`);
  }

  /** POSTs a message that needs no reply (an answer to a server request). */
  async #post(message: Record<string, unknown>, signal: AbortSignal = AbortSignal.timeout(10_000)): Promise<Response> {
    const headers = await this.#requestHeaders(this.#sessionId);
    const response = await this.#http.post("", headers, JSON.stringify(message), signal);
    await response.body?.cancel().catch(() => {});
    return response;
  }
}

/**
 * Whether a request's error says the server no longer knows the session: 404, as MCP 2025-11-25 (Transports,
 * Session Management) has it, or the 400 that servers built after the official SDK's examples answer instead
 * (server-everything: "No valid session ID provided", after a restart). Not a 400 for a message that is itself
 * malformed (JSON-RPC -32700, -32600), which a new session would not mend.
 *
 * @param error What the request threw.
 * @returns `true` when opening the session again may succeed.
 */
function isSessionGone(error: unknown): boolean {
  if (!(error instanceof McpliteError)) return false;
  if (error.status === 404) return true;
  return error.status === 400 && error.rpcCode !== -32700 && error.rpcCode !== -32600;
}
