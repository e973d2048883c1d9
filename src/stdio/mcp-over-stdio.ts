/**
 * MCP over stdio (MCP 2025-11-25, Transports: stdio; 2026-07-28 the same, stateless): the MCP dispatch carried by one
 * connection instead of HTTP requests. Only the carrier differs: no headers, a request may talk before its result
 * (progress, logs, 2025 server→client requests), a 2025 session is the connection. An answer after notifications
 * waits one event-loop turn past them, as the official TypeScript clients drop progress read in the same chunk as
 * its answer (modelcontextprotocol/typescript-sdk#2580); answers keep their order. Why: docs/guides/stdio.md.
 *
 * @module
 */
import { registryOf } from "../core/mod.ts";
import { type Host, NO_HOST } from "../server/mod.ts";
import type { Carrier, Exchange, FinishedResult } from "../bindings/mcp/carrier.ts";
import { dispatch } from "../bindings/mcp/dispatch.ts";
import { ConnectionPushes } from "../bindings/mcp/pushes.ts";
import type { McpContext } from "../bindings/mcp/mcp-request.ts";
import type { MessageOut } from "./message-out.ts";
import { sleep } from "../internal/sleep.ts";

/**
 * The MCP carrier of one stdio connection, and the scope of its requests in the in-flight table (the
 * MCP-lite requests of the connection share it, so one `notifications/cancelled` reaches both).
 */
export class McpOverStdio implements Carrier {
  readonly streaming = true;
  readonly persistent = true;
  readonly headers = undefined;
  readonly connectionHeaders: Headers | undefined;
  readonly host: Host;
  readonly piped: boolean;
  /**
   * Never aborts: the requests of a connection abort through the in-flight table (cancelled, or
   * closing). One per connection: workerd refuses an AbortController made at module scope.
   */
  readonly signal: AbortSignal = new AbortController().signal;
  /** The 2025 session `initialize` opened on this connection. */
  session: string | null = null;
  readonly #ctx: McpContext;
  readonly #out: MessageOut;
  readonly #pushes: ConnectionPushes;
  /** Whether a notification or request went out since the last answer was queued. */
  #talked = false;
  /** Answers waiting for the notifications before them, in order. */
  #waiting = 0;
  #answered: Promise<void> = Promise.resolve();

  /**
   * Creates the carrier of one connection.
   *
   * @param ctx The MCP binding's state.
   * @param out The connection's output.
   * @param host The caller and platform values of the connection (a WebSocket's upgrade request).
   * @param piped Whether the connection is a pipe (stdio) rather than a TCP socket (a WebSocket).
   * @param headers The headers of the connection (a WebSocket's upgrade request), seen by every request.
   */
  constructor(ctx: McpContext, out: MessageOut, host: Host = NO_HOST, piped = true, headers?: Headers) {
    this.#ctx = ctx;
    this.host = host;
    this.piped = piped;
    this.connectionHeaders = headers;
    this.#out = out;
    this.#pushes = new ConnectionPushes(registryOf(ctx.core), (message) => out.send(message));
  }

  /**
   * Handles one message: dispatches it; what goes out is written as it comes.
   *
   * @param message The parsed message.
   */
  receive(message: unknown): void {
    dispatch(this.#ctx, message, this);
  }

  send(message: string): void {
    this.#out.send(message);
    this.#talked = true;
  }

  respond(exchange: Exchange, result: FinishedResult): void {
    const message = exchange.message(result);
    this.#answer(() => {
      this.#out.send(message);
      if (exchange.request !== undefined) this.#pushes.follow(exchange.request);
    });
  }

  fail(_exchange: Exchange, message: string): void {
    this.#answer(() => this.#out.send(message));
  }

  /** Writes an answer now, or after the notifications before it and one turn (see the module's note). */
  #answer(write: () => void): void {
    if (!this.#talked && this.#waiting === 0) return write();
    this.#talked = false;
    this.#waiting++;
    this.#answered = this.#answered
      .then(() => this.#out.flush())
      .then(() => sleep(0))
      .then(() => {
        this.#waiting--;
        write();
      });
  }

  /** The connection's 2025 session opened: from now on the client hears of changes. */
  opened(session: string): void {
    this.session = session;
    this.#pushes.start();
  }

  /**
   * Ends the connection's MCP: stops the pushes, aborts every running request, and waits until each
   * has settled and its answer was written.
   *
   * @param reason Why the requests abort.
   * @returns When every request settled.
   */
  async close(reason: Error): Promise<void> {
    this.#pushes.stop();
    this.#ctx.inFlight.abortAll(this, reason);
    await this.#ctx.inFlight.settled(this);
    await this.#answered;
  }
}
