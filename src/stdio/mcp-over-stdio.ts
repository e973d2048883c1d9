/**
 * MCP over stdio (MCP 2025-11-25, Transports: stdio; MCP 2026-07-28 the same, stateless): the MCP
 * binding's router and methods, carried by one connection instead of HTTP requests. What differs from
 * HTTP is only the carrier: no headers to check, every request may talk before its result (progress,
 * logs, 2025 server→client requests on the same connection, answered on stdin), a 2025 session is
 * the connection itself, and list changes and resource updates reach a 2025 client outside requests.
 *
 * @module
 */
import { NO_HOST } from "../server/binding.ts";
import type { CacheHint } from "../core/resource.ts";
import type { RegistryChange } from "../core/registry.ts";
import { errorMessage, resultMessage } from "../bindings/jsonrpc.ts";
import { errorToWire } from "../bindings/jsonrpc-error.ts";
import { CachedBody } from "../bindings/mcp/caching.ts";
import type { LegacySession } from "../bindings/mcp/envelope.ts";
import { finishResult } from "../bindings/mcp/reply.ts";
import { type Channel, type McpContext, Subscription } from "../bindings/mcp/request.ts";
import { type ErrorTarget, route, type Transport } from "../bindings/mcp/route.ts";
import { legacyErrorToWire } from "../bindings/mcp/status.ts";
import type { InFlight } from "./in-flight.ts";
import type { LineWriter } from "./line-writer.ts";

/** The list-changed notification of each kind of registry change (2025 revisions). */
const LIST_CHANGED: Readonly<Record<string, string>> = {
  tools: '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}',
  prompts: '{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}',
  resources: '{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}',
};

/** One stdio connection's MCP state: its 2025 session, if `initialize` opened one. */
export class McpOverStdio {
  readonly #ctx: McpContext;
  readonly #out: LineWriter;
  readonly #inFlight: InFlight;
  /** The 2025 session `initialize` opened on this connection. */
  #session: string | null = null;
  /** Resources the 2025 client subscribed to (`resources/subscribe`). */
  readonly #subscribed = new Set<string>();
  #stopPushes: (() => void) | undefined;

  /**
   * Creates the carrier of one connection.
   *
   * @param ctx The MCP binding's state.
   * @param out The connection's output.
   * @param inFlight The connection's running requests.
   */
  constructor(ctx: McpContext, out: LineWriter, inFlight: InFlight) {
    this.#ctx = ctx;
    this.#out = out;
    this.#inFlight = inFlight;
  }

  /** Whether `initialize` opened a 2025 session on this connection. */
  get initialized(): boolean {
    return this.#session !== null;
  }

  /**
   * Handles one message: routes it, runs its method, and writes the answer.
   *
   * @param message The parsed message.
   */
  receive(message: unknown): void {
    const target: ErrorTarget = { id: null, table: legacyErrorToWire };
    // Its own headers per request: a handler may set some on ctx.meta.headers.
    const headers = new Headers();
    const transport: Transport = { headers, http: false, sse: true, session: this.#session, host: NO_HOST };
    let routed;
    try {
      routed = route(this.#ctx, message, transport, target);
    } catch (error) {
      this.#fail(target, error);
      return;
    }
    if (routed === undefined) return; // a notification, or an answer to a question of ours
    const { request, method } = routed;
    const id = request.rpc.id ?? null;
    const running = this.#inFlight.start(id);
    const channel = new StdioChannel(this, running.controller.signal);
    const work = (async () => {
      try {
        const result = await method(this.#ctx, request, channel);
        if (running.cancelled) return; // MCP 2025-11-25, Cancellation: no response after cancelling
        if (result instanceof Subscription) return this.#listen(result, running.controller.signal);
        if (result instanceof CachedBody) {
          this.#out.line(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result.body}}`);
        } else this.#out.line(resultMessage(id, finishResult(result, request.envelope, this.#ctx.serverInfo)));
        if (request.rpc.method === "resources/subscribe") this.#subscribed.add(request.rpc.params.uri as string);
        if (request.rpc.method === "resources/unsubscribe") this.#subscribed.delete(request.rpc.params.uri as string);
      } catch (error) {
        if (!running.cancelled) this.#fail(target, error);
      }
    })();
    this.#inFlight.track(id, running, work);
  }

  /** Sends a serialised message. */
  send(message: string): void {
    this.#out.line(message);
  }

  /**
   * Opens the connection's 2025 session (`initialize`), and from then on tells the client of list
   * changes and of updates to the resources it subscribed to.
   *
   * @param session What `initialize` negotiated.
   */
  openSession(session: LegacySession): void {
    this.#session = this.#ctx.sessions.open(session);
    this.#stopPushes ??= this.#ctx.core.registry.onChange((change: RegistryChange) => {
      if (change.kind !== "resource-updated") return this.#out.line(LIST_CHANGED[change.kind]);
      if (this.#subscribed.has(change.uri)) {
        this.#out.line(JSON.stringify({
          jsonrpc: "2.0",
          method: "notifications/resources/updated",
          params: { uri: change.uri },
        }));
      }
    });
  }

  /** Stops the notifications of this connection (it is closing). */
  close(): void {
    this.#stopPushes?.();
    this.#stopPushes = undefined;
  }

  /** Keeps a `subscriptions/listen` (2026-07-28) open until the client cancels it or the connection ends. */
  #listen(subscription: Subscription, signal: AbortSignal): Promise<void> {
    const out = this.#out;
    const stop = subscription.open({
      event(data) {
        if (!signal.aborted) out.line(data);
      },
      comment: () => {},
      get open() {
        return !signal.aborted && !out.broken;
      },
    });
    return new Promise<void>((done) => {
      const end = () => {
        stop();
        done();
      };
      if (signal.aborted) end();
      else signal.addEventListener("abort", end, { once: true });
    });
  }

  #fail(target: ErrorTarget, error: unknown): void {
    const wire = errorToWire(error, target.table, this.#ctx.report);
    this.#out.line(errorMessage(target.id, wire.code, wire.message, wire.data));
  }
}

/** The channel of one request over stdio: everything it sends goes on the connection at once. */
class StdioChannel implements Channel {
  readonly streaming = true;
  readonly persistent = true;
  readonly signal: AbortSignal;
  readonly #connection: McpOverStdio;

  constructor(connection: McpOverStdio, signal: AbortSignal) {
    this.#connection = connection;
    this.signal = signal;
  }

  notify(method: string, params: Record<string, unknown>): void {
    this.#connection.send(JSON.stringify({ jsonrpc: "2.0", method, params }));
  }

  send(message: string): void {
    this.#connection.send(message);
  }

  cache(_hint: CacheHint): void {} // no HTTP caching on a pipe

  openSession(session: LegacySession): void {
    this.#connection.openSession(session);
  }
}
