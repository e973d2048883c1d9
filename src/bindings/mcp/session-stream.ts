/**
 * A 2025 session's own stream over HTTP (MCP 2025-11-25, Transports, Streamable HTTP: "Listening for Messages from
 * the Server"), served by `sessionStreams()`: an SSE stream that carries what the server says outside any request, as
 * a connection does (`ConnectionPushes`): list changes, updates of the resources the session subscribed to, and logs
 * from the level `logging/setLevel` chose. One connection at a time; nothing kept while none is open.
 *
 * @module
 */
import { type AuthInfo, registryOf } from "../../core/mod.ts";
import { createSseStream, type SseWriter } from "../../internal/sse.ts";
import { sseResponse } from "../../server/mod.ts";
import type { LegacySession } from "./envelope.ts";
import type { McpContext, McpRequest } from "./mcp-request.ts";
import { ConnectionPushes } from "./pushes.ts";

/** A session's pushes, and the connection (a `GET`) they go out on while the client has one open. */
export class SessionStream {
  readonly #ctx: McpContext;
  readonly #pushes: ConnectionPushes;
  #writer: SseWriter | undefined;
  /** Ends the open connection; none while the client has no `GET` open. */
  #end: (() => void) | undefined;

  /**
   * Starts hearing changes for a session (its pushes run from now until {@link close}).
   *
   * @param ctx The binding.
   * @param id The session id.
   * @param session The session: its log level, as `logging/setLevel` sets it, filters the logs.
   * @param auth The caller, as the request that needed the stream proved it.
   */
  constructor(ctx: McpContext, id: string, session: LegacySession, auth: AuthInfo | undefined) {
    this.#ctx = ctx;
    const send = (message: string) => this.#writer?.event(message);
    this.#pushes = new ConnectionPushes(registryOf(ctx.core), send, auth, () => session.logLevel);
    this.#pushes.start(id);
  }

  /** How many resources the session subscribed to. */
  get subscriptions(): number {
    return this.#pushes.subscriptions;
  }

  /**
   * Follows an answered `resources/subscribe` or `resources/unsubscribe` (`ConnectionPushes.follow`).
   *
   * @param request The request.
   */
  follow(request: McpRequest): void {
    this.#pushes.follow(request);
  }

  /**
   * Opens the session's connection; a newer `GET` (a client reconnecting) takes over, and the older one ends.
   *
   * @returns The SSE response.
   */
  open(): Response {
    this.#end?.();
    let end: (() => void) | undefined;
    const body = createSseStream((writer) => {
      this.#writer = writer;
      // A first line at once: a server may hold a response's head until its body's first bytes (Bun does).
      writer.comment("stream open");
      return new Promise<void>((done) => {
        const ended = () => {
          if (this.#end === ended) this.#writer = this.#end = undefined;
          release();
          done();
        };
        this.#end = end = ended;
        // MCP 2025-11-25, Transports: the server may close the stream at any time (as it drains, `server.drain()`);
        // the client opens another, here or elsewhere.
        const release = registryOf(this.#ctx.core).runtime.hold(ended);
      });
    }, { heartbeatMs: this.#ctx.core.options.heartbeatMs, onCancel: () => end?.() });
    return sseResponse(body);
  }

  /** Ends the session's pushes and its connection (the session ended, or left the table). */
  close(): void {
    this.#pushes.stop();
    this.#end?.();
  }
}
