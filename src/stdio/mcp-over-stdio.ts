/**
 * MCP over stdio (MCP 2025-11-25, Transports: stdio; MCP 2026-07-28 the same, stateless): the MCP
 * dispatch, carried by one connection instead of HTTP requests. What differs from HTTP is only the
 * carrier: no headers to check, every request may talk before its result (progress, logs, 2025
 * server→client requests on the same connection, answered on stdin), a 2025 session is the
 * connection itself, `notifications/cancelled` names requests of the connection, and list changes and
 * resource updates reach a 2025 client outside requests.
 *
 * @module
 */
import { NO_HOST } from "../server/binding.ts";
import type { Carrier, Exchange, FinishedResult } from "../bindings/mcp/carrier.ts";
import { dispatch } from "../bindings/mcp/dispatch.ts";
import { ConnectionPushes } from "../bindings/mcp/pushes.ts";
import type { McpContext } from "../bindings/mcp/request.ts";
import type { LineWriter } from "./line-writer.ts";

/** Never aborts: the requests of a connection abort through the in-flight table (cancelled, or closing). */
const NEVER: AbortSignal = new AbortController().signal;

/**
 * The MCP carrier of one stdio connection, and the scope of its requests in the in-flight table (the
 * MCP-lite requests of the connection share it, so one `notifications/cancelled` reaches both).
 */
export class McpOverStdio implements Carrier {
  readonly streaming = true;
  readonly persistent = true;
  readonly headers = undefined;
  readonly host = NO_HOST;
  readonly signal = NEVER;
  /** The 2025 session `initialize` opened on this connection. */
  session: string | null = null;
  readonly #ctx: McpContext;
  readonly #out: LineWriter;
  readonly #pushes: ConnectionPushes;

  /**
   * Creates the carrier of one connection.
   *
   * @param ctx The MCP binding's state.
   * @param out The connection's output.
   */
  constructor(ctx: McpContext, out: LineWriter) {
    this.#ctx = ctx;
    this.#out = out;
    this.#pushes = new ConnectionPushes(ctx.core.registry, (message) => out.line(message));
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
    this.#out.line(message);
  }

  respond(exchange: Exchange, result: FinishedResult): void {
    this.#out.line(exchange.message(result));
    if (exchange.request !== undefined) this.#pushes.follow(exchange.request);
  }

  fail(_exchange: Exchange, message: string): void {
    this.#out.line(message);
  }

  /** The connection's 2025 session opened: from now on the client hears of changes. */
  opened(session: string): void {
    this.session = session;
    this.#pushes.start();
  }

  /**
   * Ends the connection's MCP: stops the pushes, aborts every running request, and waits until each
   * has settled.
   *
   * @param reason Why the requests abort.
   * @returns When every request settled.
   */
  close(reason: Error): Promise<void> {
    this.#pushes.stop();
    this.#ctx.inFlight.abortAll(this, reason);
    return this.#ctx.inFlight.settled(this);
  }
}
