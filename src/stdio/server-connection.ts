/**
 * One JSON-RPC connection, whatever frames its messages: lines on stdio, text frames on a WebSocket.
 * Each message is decoded (UTF-8, fatal), parsed (bounded nesting) and handed to MCP or MCP-lite;
 * requests run concurrently and answer in whatever order they finish (JSON-RPC 2.0 §6 lets responses
 * come in any order; the ids match them up).
 *
 * @module
 */
import { budgeting, callerOf, ErrorCode, longRunning, ProtocolError, registryOf } from "../core/mod.ts";
import { jsonRpcErrorMessage } from "../bindings/jsonrpc-error.ts";
import { createMcpContext } from "../bindings/mcp/handler.ts";
import { type McpOptions, resolveMcpSettings } from "../bindings/mcp/mcp-options.ts";
import { legacyErrorToWire } from "../bindings/mcp/status.ts";
import { isLiteMessage } from "../bindings/mcplite/methods.ts";
import { LiteSocketCarrier } from "../bindings/mcplite/socket-carrier.ts";
import { type Host, NO_HOST, parseJson, type ServerCore } from "../server/mod.ts";
import { type Line, OVERSIZE } from "../internal/line-splitter.ts";
import { utf8Length } from "../internal/utf8-length.ts";
import type { MessageOut } from "./message-out.ts";
import { McpOverStdio } from "./mcp-over-stdio.ts";
import { CallsInFlight } from "./calls-in-flight.ts";

/** Options of a {@link ServerConnection}. */
export interface ServerConnectionOptions {
  /** The MCP options. */
  readonly mcp?: McpOptions;
  /** The longest message accepted, in bytes (for its error message; the framing enforces it). */
  readonly maxMessageBytes: number;
  /** The caller and platform values the connection's requests run with (default: none). */
  readonly host?: Host;
  /** The headers every request of the connection sees as `ctx.meta.headers` (a WebSocket's upgrade request). */
  readonly headers?: Headers;
  /**
   * What carries the messages, as OpenTelemetry's `network.transport` names it: `pipe` for stdio,
   * `tcp` for a WebSocket.
   */
  readonly transport: "pipe" | "tcp";
}

/**
 * Handles the messages of one connection of `serveStdio()` or of the WebSocket binding (the server's
 * side; the client's is `StdioConnection` in `client/transports`).
 */
export class ServerConnection {
  readonly #core: ServerCore;
  readonly #out: MessageOut;
  readonly #mcp: McpOverStdio;
  readonly #lite: LiteSocketCarrier;
  readonly #decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  readonly #maxMessageBytes: number;
  readonly #wire: string;
  readonly #calls: CallsInFlight;

  /**
   * Creates a connection.
   *
   * @param core The server's registry and options.
   * @param out Where messages go.
   * @param options The MCP options, the longest message accepted, and the connection's caller.
   */
  constructor(core: ServerCore, sink: MessageOut, options: ServerConnectionOptions) {
    this.#core = core;
    const host = options.host ?? NO_HOST;
    // Each request takes a call of the server's budgets (`limits.calls`) until its response is written.
    const out = this.#calls = new CallsInFlight(
      sink,
      budgeting.of(registryOf(core).runtime),
      host.caller ?? callerOf(host.auth),
    );
    this.#out = out;
    this.#maxMessageBytes = options.maxMessageBytes;
    this.#wire = options.transport === "pipe" ? "stdio" : "a WebSocket";
    const ctx = createMcpContext(core, resolveMcpSettings(options.mcp ?? {}));
    const piped = options.transport === "pipe";
    this.#mcp = new McpOverStdio(ctx, out, host, piped, options.headers);
    // One table and one scope for both: a notifications/cancelled (routed as MCP) reaches MCP-lite calls too.
    this.#lite = new LiteSocketCarrier(
      core,
      out,
      (id) => ctx.inFlight.start(this.#mcp, id),
      host,
      longRunning.holdFor(core, "mcp-lite"), // mcpLiteBinding({ holdMs }), else the server's
      piped,
      options.headers,
    );
  }

  /**
   * Handles one message as bytes (a line, a binary frame).
   *
   * @param line Its bytes, or the report that it was too long.
   */
  receive(line: Line): void {
    this.#handle(() => {
      if (line === OVERSIZE) throw this.#oversize();
      return this.#decode(line);
    });
  }

  /**
   * Handles one message as text (a WebSocket text frame).
   *
   * @param text The message; one longer than the limit is answered with an error.
   */
  receiveText(text: string): void {
    this.#handle(() => {
      // At most 3 bytes per UTF-16 unit: most messages need no count.
      if (text.length * 3 > this.#maxMessageBytes && utf8Length(text) > this.#maxMessageBytes) throw this.#oversize();
      return text;
    });
  }

  #handle(read: () => string): void {
    let message: unknown;
    try {
      message = parseJson(read(), this.#core.options.maxJsonDepth);
      if (Array.isArray(message)) {
        throw new ProtocolError(
          ErrorCode.InvalidRequest,
          `Invalid Request: batches are not supported on ${this.#wire}`,
        );
      }
    } catch (error) {
      this.#out.send(
        jsonRpcErrorMessage(null, error, legacyErrorToWire, (e) => registryOf(this.#core).runtime.onError?.(e)),
      );
      return;
    }
    const refusal = this.#calls.admit(message);
    if (refusal !== undefined) {
      this.#out.send(jsonRpcErrorMessage((message as { id: string | number }).id, refusal, legacyErrorToWire));
      return;
    }
    if (this.#mcp.session === null && isLiteMessage(message)) this.#lite.receive(message);
    else this.#mcp.receive(message);
  }

  /**
   * Ends the connection: aborts every running request, and waits until each has answered.
   *
   * @param reason Why the requests abort.
   * @returns When every request settled.
   */
  close(reason: Error): Promise<void> {
    return this.#mcp.close(reason).finally(() => this.#calls.end());
  }

  #oversize(): ProtocolError {
    return new ProtocolError(
      ErrorCode.PayloadTooLarge,
      `Invalid Request: message larger than ${this.#maxMessageBytes} bytes`,
    );
  }

  #decode(line: Uint8Array): string {
    try {
      return this.#decoder.decode(line);
    } catch {
      throw new ProtocolError(ErrorCode.ParseError, "Parse error: the message is not valid UTF-8");
    }
  }
}
