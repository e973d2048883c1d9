/**
 * MCP over a socket, stdio or WebSocket (MCP 2025-11-25, Transports: stdio; 2026-07-28 the same, stateless): the
 * MCP dispatch carried by one connection instead of HTTP requests. Only the carrier differs: no headers, a request
 * may talk before its result (progress, logs, 2025 server→client requests), a 2025 session is the connection. An answer after notifications
 * waits one event-loop turn past them, as the official TypeScript clients drop progress read in the same chunk as
 * its answer (modelcontextprotocol/typescript-sdk#2580); answers keep their order. Why: docs/guides/stdio.md.
 *
 * @module
 */
import { registryOf } from "../../core/mod.ts";
import * as longRunning from "../../jobs/mod.ts";
import { type Host, NO_HOST } from "../../server/mod.ts";
import type { JsonRpcId } from "../jsonrpc.ts";
import { jsonRpcErrorMessage } from "../jsonrpc-error.ts";
import type { Carrier, Exchange, FinishedResult } from "./carrier.ts";
import { dispatch } from "./dispatch.ts";
import { ConnectionPushes } from "./pushes.ts";
import type { McpContext } from "./mcp-request.ts";
import { legacyErrorToWire } from "../../errors/mcp-codes.ts";
import { sleep } from "../../internal/sleep.ts";

/** Where a connection's messages go (a line on stdout, a WebSocket frame), in call order. */
export interface SocketOut {
  /**
   * Sends one message.
   *
   * @param message The serialised JSON-RPC message.
   */
  send(message: string): void;
  /**
   * Waits until every message sent so far was handed to the output.
   *
   * @returns When they were.
   */
  flush(): Promise<void>;
  /**
   * Takes a running request out of the connection's budget of calls (a long-lived stream, SEP-3415 "Push"), where
   * the output counts them.
   *
   * @param id The request's id.
   */
  exempt?(id: JsonRpcId): void;
}

/**
 * The MCP carrier of one socket connection, and the scope of its requests in the in-flight table (the
 * MCP-lite requests of the connection share it through {@link McpSocketCarrier.track}, so one
 * `notifications/cancelled` reaches both).
 */
export class McpSocketCarrier implements Carrier {
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
  readonly #out: SocketOut;
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
  constructor(ctx: McpContext, out: SocketOut, host: Host = NO_HOST, piped = true, headers?: Headers) {
    this.#ctx = ctx;
    // A push stream leaves the connection's count of calls (SEP-3415 "Push"), by its id, where the output counts them
    // (never the budget that admitted a WebSocket's upgrade request, which its host would otherwise carry).
    this.host = { ...host, exempt: out.exempt?.bind(out) };
    this.piped = piped;
    this.connectionHeaders = headers;
    this.#out = out;
    this.#pushes = new ConnectionPushes(registryOf(ctx.core), (message) => out.send(message), host.auth);
  }

  /**
   * Handles one message: dispatches it; what goes out is written as it comes.
   *
   * @param message The parsed message.
   */
  receive(message: unknown): void {
    dispatch(this.#ctx, message, this);
  }

  /**
   * Enters a request of another protocol on the connection (MCP-lite) in this carrier's table of running
   * requests: MCP's `notifications/cancelled` and the connection's end abort it too.
   *
   * @param id The request's id.
   * @returns Its entry in the table.
   */
  track(id: JsonRpcId): longRunning.RunningRequest {
    return this.#ctx.inFlight.start(this, id);
  }

  /**
   * The error answer to a message refused before any carrier took it (unreadable, a batch, over the
   * connection's budgets), with MCP's codes.
   *
   * @param id The message's id (`null` when it could not be read).
   * @param error Why it was refused.
   * @returns The serialised JSON-RPC error response.
   */
  refusal(id: JsonRpcId, error: unknown): string {
    return jsonRpcErrorMessage(id, error, legacyErrorToWire, (e) => registryOf(this.#ctx.core).runtime.onError?.(e));
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
    this.#pushes.start(session);
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
