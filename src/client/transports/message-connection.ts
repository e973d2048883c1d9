/**
 * One JSON-RPC connection whose messages travel whole (lines on a child's stdio, text frames on a
 * WebSocket; MCP 2025-11-25, Transports: stdio; MCP-lite over stdio, as the README specifies it),
 * presented to the client's HTTP transports as a `fetch`: a POST becomes one message, and the answer a
 * JSON or SSE response carrying the messages the server sent about that request, then its response.
 * So every wire the client speaks over HTTP (the 2026-07-28 probe and envelope, the 2025 session with
 * its standalone stream, MCP-lite's streaming events) works unchanged over a pipe or a socket.
 *
 * @module
 */
import { isObject } from "../../internal/is-object.ts";
import type { McpliteError } from "../../errors/error.ts";
import { META, PARTIAL_NOTIFICATION } from "../../internal/mcp-wire.ts";
import { transportError } from "../errors.ts";
import type { FetchLike } from "../http.ts";
import type { MessageMiddleware } from "../../message-middleware/message-middleware.ts";
import {
  internalError,
  isRequest,
  isResponse,
  lane,
  type Message,
  through,
  Trail,
} from "../../message-middleware/chain.ts";

const encoder = new TextEncoder();
const SSE_HEADERS = { "content-type": "text/event-stream" };
const JSON_HEADERS = { "content-type": "application/json" };
/** Where the ids the connection gives (to requests the client gave none) start: above the client's own. */
const OWN_IDS = 1_000_000_000;

/** MCP-lite's listing endpoints (§4.2; this SDK's extensions E1 and E4), by the method each is on a connection. */
const LISTINGS: readonly (readonly [RegExp, string])[] = [
  [/\/(listtools|tools)$/, "tools/list"],
  [/\/prompts$/, "prompts/list"],
  [/\/resources$/, "resources/list"],
  [/\/resources\/templates$/, "resources/templates/list"],
];

/** A request sent to the child, waiting for its response. */
interface Pending {
  /** The id the client gave it. */
  readonly clientId: unknown;
  /** MCP-lite (`notifications/*` name it by `requestId`) rather than MCP (progress by token). */
  readonly lite: boolean;
  /** The progress token it carries (MCP). */
  readonly progressToken: unknown;
  /** Sends an SSE event on its response, when the client accepted a stream. */
  readonly event: ((data: string, name?: string) => void) | undefined;
  /** Delivers the response. */
  readonly settle: (message: Record<string, unknown>) => void;
  /** Fails it. */
  readonly fail: (error: Error) => void;
}

/**
 * The connection, whatever carries its messages: a subclass writes them ({@link MessageConnection.write})
 * and hands over what arrives ({@link MessageConnection.receive}).
 */
export abstract class MessageConnection {
  readonly #pending = new Map<number, Pending>();
  #nextId = OWN_IDS;
  /** The last id the client gave that a request went out with. */
  #lastClientId = 0;
  #standalone: ((message: string) => void) | undefined;
  #endStandalone: (() => void) | undefined;
  #failure: McpliteError | undefined;
  #heard = false;
  /** Receives what the server notifies outside any request (list changes, resource updates). */
  onNotice: ((message: Record<string, unknown>) => void) | undefined;
  /** The message middleware, when the client has some: what comes in, and what goes out. */
  #messages: { receive(message: Message): void; send(message: Message): Promise<void> } | undefined;

  /**
   * Runs message middleware over every message of the connection, from now on: each direction passes it one
   * message at a time, in order. A message whose middleware threw going out fails its request; coming in, a
   * response becomes an internal error for its request, a server's request is answered with one, a notification
   * is dropped.
   *
   * @param chain The middleware, outermost first.
   * @param transport `stdio` or `websocket`.
   */
  intercept(chain: readonly MessageMiddleware[], transport: "stdio" | "websocket"): void {
    const trail = new Trail();
    let queue: Promise<unknown> = Promise.resolve();
    const send = (message: Message): Promise<void> => {
      const info = { direction: "out", transport, method: trail.methodOf(message, "out") } as const;
      const sent = queue.then(() => through(chain, message, info, (m) => this.write(JSON.stringify(m))));
      queue = sent.catch(() => {});
      return sent.then(() => {});
    };
    const inbound = lane(chain, transport, "in", trail, (m) => this.#route(m), (m) => {
      if (isResponse(m)) this.#route(internalError(m.id));
      else if (isRequest(m)) void this.write(JSON.stringify(internalError(m.id))).catch(() => {});
    }, (response) => void send(response).catch(() => {}));
    this.#messages = { receive: (message) => inbound.take(message), send };
  }

  /**
   * Writes one serialised message.
   *
   * @param text The JSON-RPC message.
   * @returns When it was handed over.
   */
  protected abstract write(text: string): Promise<void>;

  /** The `fetch` the client's transports send through. */
  readonly fetch: FetchLike = (request) => this.#handle(request);

  /** Ends the standalone stream (the connection is closing). */
  protected endStandalone(): void {
    this.#endStandalone?.();
  }

  async #handle(request: Request): Promise<Response> {
    if (this.#failure !== undefined) throw this.#failure;
    const path = new URL(request.url).pathname;
    // MCP-lite's plain POST listings have no method: on a connection they are `tools/list`, `prompts/list`…
    const listing = LISTINGS.find(([end]) => end.test(path))?.[1];
    const lite = listing !== undefined || /\/(calltools|rpc|prompts\/get|resources\/read)$/.test(path);
    if (request.method === "GET" && !lite) return this.#openStandalone(request.signal);
    if (request.method !== "POST") return new Response(null, { status: 405 });
    const body = await request.json() as Record<string, unknown>;
    const listOnly = listing !== undefined;
    if (!listOnly && (body.id === undefined || body.method === undefined)) {
      await this.#write(body); // a notification, or the answer to a server→client request
      return new Response(null, { status: 202 });
    }
    const method = listing ?? String(body.method);
    const params = (isObject(body.params) ? body.params : {}) as Record<string, unknown>;
    const accept = request.headers.get("accept") ?? "";
    const streaming = accept.includes("text/event-stream");
    const meta = isObject(params._meta) ? params._meta : undefined;
    const sent = lite && streaming ? { ...params, _meta: { ...meta, stream: true } } : params;
    const id = this.#idFor(body.id);
    const message = { jsonrpc: "2.0", id, method, params: sent };
    const clientId = body.id;
    const shape = (response: Record<string, unknown>) => ({ ...response, id: clientId });

    if (!streaming) {
      const response = await this.#exchange(id, message, request.signal, {
        lite,
        clientId,
        progressToken: meta?.progressToken,
      });
      if (listOnly) return new Response(JSON.stringify(response.result ?? response), { headers: JSON_HEADERS });
      return new Response(JSON.stringify(shape(response)), { headers: JSON_HEADERS });
    }
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let open = true;
    const event = (data: string, name?: string) => {
      if (!open) return;
      controller.enqueue(encoder.encode(`${name === undefined ? "" : `event: ${name}\n`}data: ${data}\n\n`));
    };
    const end = () => {
      if (!open) return;
      open = false;
      controller.close();
    };
    const body$ = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    this.#exchange(id, message, request.signal, { lite, clientId, progressToken: meta?.progressToken, event })
      .then((response) => {
        if (!lite) event(JSON.stringify(shape(response)));
        else if ("result" in response) event(JSON.stringify(response.result), "done");
        else event(JSON.stringify({ id: clientId, ...(response.error as Record<string, unknown>) }), "error");
        end();
      }, (error: Error) => {
        if (!open) return;
        open = false;
        controller.error(error);
      });
    return new Response(body$, { headers: SSE_HEADERS });
  }

  /**
   * The id a request goes out with: the client's own, so that both ends name the request alike (the
   * telemetry's `jsonrpc.request.id`), while it is an integer above every id the client gave before;
   * else (MCP-lite's list has none) the connection's next, from a range of its own, so that no id is
   * used twice on the connection (MCP 2025-11-25, Basic: requests).
   */
  #idFor(clientId: unknown): number {
    if (Number.isSafeInteger(clientId) && (clientId as number) > this.#lastClientId && (clientId as number) < OWN_IDS) {
      return this.#lastClientId = clientId as number;
    }
    return this.#nextId++;
  }

  /** Sends a request and waits for its response; an abort sends `notifications/cancelled`. */
  #exchange(
    id: number,
    message: Record<string, unknown>,
    signal: AbortSignal,
    route: { lite: boolean; clientId: unknown; progressToken: unknown; event?: (data: string, name?: string) => void },
  ): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const done = () => {
        signal.removeEventListener("abort", onAbort);
        this.#pending.delete(id);
      };
      const onAbort = () => {
        done();
        void this.#write({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } }).catch(
          () => {},
        );
        reject(signal.reason);
      };
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(id, {
        clientId: route.clientId,
        lite: route.lite,
        progressToken: route.progressToken,
        event: route.event,
        settle: (response) => {
          done();
          resolve(response);
        },
        fail: (error) => {
          done();
          reject(error);
        },
      });
      this.#write(message).catch((error) =>
        this.#pending.get(id)?.fail(this.#failure ?? transportError(`cannot write to the server: ${error}`))
      );
    });
  }

  #openStandalone(signal: AbortSignal): Response {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => void (controller = c),
      cancel: () => this.#endStandalone?.(),
    });
    const end = () => {
      if (this.#standalone === send) this.#standalone = undefined;
      try {
        controller.close();
      } catch { /* closed already */ }
    };
    const send = (message: string) => controller.enqueue(encoder.encode(`data: ${message}\n\n`));
    this.#endStandalone?.();
    this.#standalone = send;
    this.#endStandalone = end;
    signal.addEventListener("abort", end, { once: true });
    return new Response(body, { headers: SSE_HEADERS });
  }

  /**
   * Routes one message from the server.
   *
   * @param message The parsed message.
   */
  protected receive(message: Record<string, unknown>): void {
    this.#heard = true;
    if (this.#messages !== undefined) this.#messages.receive(message);
    else this.#route(message);
  }

  #route(message: Record<string, unknown>): void {
    const { id, method } = message;
    if (method === undefined) { // a response
      if (typeof id === "number") this.#pending.get(id)?.settle(message);
      return;
    }
    const text = JSON.stringify(message);
    const params = (isObject(message.params) ? message.params : {}) as Record<string, unknown>;
    if (id !== undefined) { // a server→client request (2025): the standalone stream, else the newest MCP call
      const target = this.#standalone ?? this.#newest((p) => !p.lite && p.event !== undefined)?.event;
      if (target !== undefined) return target(text);
      void this.#write({
        jsonrpc: "2.0",
        id,
        error: { code: -32601, message: "The client cannot answer requests now" },
      })
        .catch(() => {});
      return;
    }
    // A push stream's notifications name it by its id (SEP-3415 "Push"), as an extension's held request's may: several
    // streams on one connection each hear their own. A `subscriptions/listen` stream's (list changes, resource updates:
    // MCP 2026-07-28) name it too, but are the connection's notices, followed below (the proxy's, `onNotice`).
    const subscription = isObject(params._meta) ? params._meta[META.subscriptionId] : undefined;
    const held = typeof subscription === "number" ? this.#pending.get(subscription) : undefined;
    const own = String(method).startsWith("notifications/events/") || !String(method).startsWith("notifications/");
    if (own && held?.event !== undefined && !held.lite) return held.event(text);
    if (typeof params.requestId === "number") { // MCP-lite notifications name their request
      const pending = this.#pending.get(params.requestId);
      if (pending?.lite && pending.event !== undefined) {
        const { requestId: _, ...rest } = params;
        const name = method === "notifications/partial"
          ? "message"
          : method === "notifications/progress"
          ? "progress"
          : "log";
        pending.event(JSON.stringify(rest), name);
        return;
      }
    }
    if (
      (method === "notifications/progress" || method === PARTIAL_NOTIFICATION) && params.progressToken !== undefined
    ) {
      const pending = this.#newest((p) => !p.lite && p.progressToken === params.progressToken);
      pending?.event?.(text);
      return;
    }
    // Logs, URL elicitation's completion (MCP 2025-11-25), and an extension's notifications (SEP-2133: named
    // under its identifier, never `notifications/…`) go to the call they most likely belong to.
    if (
      method === "notifications/message" || method === "notifications/elicitation/complete" ||
      !String(method).startsWith("notifications/")
    ) {
      const pending = this.#newest((p) => !p.lite && p.event !== undefined);
      if (pending !== undefined) return pending.event!(text);
    }
    this.#standalone?.(text); // list changes, resource updates: what the 2025 GET stream carries
    this.onNotice?.(message);
  }

  #newest(match: (pending: Pending) => boolean): Pending | undefined {
    let found: Pending | undefined;
    for (const pending of this.#pending.values()) if (match(pending)) found = pending;
    return found;
  }

  #write(message: Record<string, unknown>): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return this.#messages === undefined ? this.write(JSON.stringify(message)) : this.#messages.send(message);
  }

  /** Whether any message arrived from the server yet. */
  get heard(): boolean {
    return this.#heard;
  }

  /** Whether the connection failed (every request fails). */
  protected get failed(): boolean {
    return this.#failure !== undefined;
  }

  /**
   * Fails every pending request, and every later one.
   *
   * @param error What happened.
   */
  protected fail(error: McpliteError): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    for (const pending of [...this.#pending.values()]) pending.fail(error);
    this.#endStandalone?.();
  }
}
