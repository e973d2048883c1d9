/**
 * One JSON-RPC connection, whatever frames its messages: lines on stdio, text frames on a WebSocket.
 * Each message is decoded (UTF-8, fatal), parsed (bounded nesting) and handed to MCP or MCP-lite;
 * requests run concurrently and answer in whatever order they finish (JSON-RPC 2.0 §6 lets responses
 * come in any order; the ids match them up).
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";
import { budgeting, callerOf, registryOf } from "../core/mod.ts";
import { isLiteMessage } from "../bindings/mcplite/methods.ts";
import { type Host, NO_HOST, parseJson, type ServerCore } from "../server/mod.ts";
import { type Line, OVERSIZE } from "../internal/line-splitter.ts";
import { utf8Length } from "../internal/utf8-length.ts";
import { isObject } from "../internal/is-object.ts";
import type { MessageOut } from "./message-out.ts";
import { CallsInFlight } from "./calls-in-flight.ts";
import type { ConnectionMessages, connectionMessages } from "../message-middleware/connection-messages.ts";
import { messagesOf } from "../message-middleware/message-feature.ts";

/** Who is at the other end of a connection, for the carriers its requests run on. */
export interface ConnectionPeer {
  /** The caller and platform values of the connection (a WebSocket's upgrade request). */
  readonly host: Host;
  /** Whether the connection is a pipe (stdio) rather than a TCP socket (a WebSocket). */
  readonly piped: boolean;
  /** The headers of the connection (a WebSocket's upgrade request), seen by every request. */
  readonly headers?: Headers;
}

/**
 * The two carriers of one connection: MCP-lite takes the messages its method table names
 * (`isLiteMessage()`) until a 2025 MCP session opens, MCP every other.
 */
export interface ConnectionCarriers {
  /** MCP: its table of running requests is the connection's (MCP-lite's requests are entered in it too). */
  readonly mcp: {
    /** The 2025 session `initialize` opened on the connection, if any. */
    readonly session: string | null;
    /** Handles one parsed message. */
    receive(message: unknown): void;
    /** The error answer (MCP's codes) to a message refused before a carrier took it. */
    refusal(id: string | number | null, error: unknown): string;
    /** Aborts every running request of the connection and waits until each answered. */
    close(reason: Error): Promise<void>;
  };
  /** MCP-lite. */
  readonly lite: {
    /** Handles one parsed message. */
    receive(message: unknown): void;
  };
}

/**
 * Builds the carriers of one connection; the entry point that serves the connection assembles them
 * (`src/assembly/socket-carriers.ts`), so that the connection runs no binding it does not need.
 */
export type CarriersOf = (core: ServerCore, out: MessageOut, peer: ConnectionPeer) => ConnectionCarriers;

/** Options of a {@link ServerConnection}. */
export interface ServerConnectionOptions {
  /** Builds the connection's MCP and MCP-lite carriers. */
  readonly carriers: CarriersOf;
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
  readonly #mcp: ConnectionCarriers["mcp"];
  readonly #lite: ConnectionCarriers["lite"];
  readonly #decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  readonly #maxMessageBytes: number;
  readonly #wire: string;
  readonly #calls: CallsInFlight;
  /** The message middleware every message passes, when a served extension brought some (`.intercept()`). */
  readonly #messages: ConnectionMessages | undefined;

  /**
   * Creates a connection.
   *
   * @param core The server's registry and options.
   * @param out Where messages go.
   * @param options The carriers, the longest message accepted, and the connection's caller.
   */
  constructor(core: ServerCore, sink: MessageOut, options: ServerConnectionOptions) {
    this.#core = core;
    const host = options.host ?? NO_HOST;
    const registry = registryOf(core);
    const runtime = registry.runtime;
    const found = messagesOf(registry);
    // Middleware sees what the client sends before the budget does, and what goes out below it.
    const messages = this.#messages = (found?.connection as typeof connectionMessages | undefined)?.(
      found!.chain,
      sink,
      options.transport === "pipe" ? "stdio" : "websocket",
      (message) => this.#take(message),
      (id, error) => this.#mcp.refusal(id, error),
      (error) => runtime.onError?.(error),
    );
    // Each request takes a call of the server's budgets (`limits.calls`) until its response is written.
    const out = this.#calls = new CallsInFlight(
      messages ?? sink,
      budgeting.of(runtime),
      host.caller ?? callerOf(host.auth),
    );
    this.#out = out;
    this.#maxMessageBytes = options.maxMessageBytes;
    this.#wire = options.transport === "pipe" ? "stdio" : "a WebSocket";
    const carriers = options.carriers(core, out, {
      host,
      piped: options.transport === "pipe",
      headers: options.headers,
    });
    this.#mcp = carriers.mcp;
    this.#lite = carriers.lite;
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
          "invalid_request",
          `Invalid Request: batches are not supported on ${this.#wire}`,
        );
      }
    } catch (error) {
      this.#out.send(this.#mcp.refusal(null, error));
      return;
    }
    // The middleware sees JSON objects; anything else is answered as invalid by the server, and that answer passes.
    if (this.#messages !== undefined && isObject(message)) this.#messages.receive(message);
    else this.#take(message);
  }

  /** Takes a message the client sent: a call of the budget for a request, then MCP-lite or MCP. */
  #take(message: unknown): void {
    const refusal = this.#calls.admit(message);
    if (refusal !== undefined) {
      this.#out.send(this.#mcp.refusal((message as { id: string | number }).id, refusal));
      return;
    }
    if (this.#mcp.session === null && isLiteMessage(message)) this.#lite.receive(message);
    else this.#mcp.receive(message);
  }

  /**
   * Ends a burst of messages: the requests received from now on are the next burst's.
   *
   * @returns When each request of the burst that ends has been answered (its response handed to the
   *   output) or the connection ended, or `undefined` when each already was.
   */
  nextWave(): Promise<void> | undefined {
    return this.#calls.nextWave();
  }

  /**
   * Ends the connection: aborts every running request, and waits until each has answered.
   *
   * @param reason Why the requests abort.
   * @returns When every request settled.
   */
  close(reason: Error): Promise<void> {
    const closed = this.#mcp.close(reason).finally(() => this.#calls.end());
    return this.#messages === undefined ? closed : closed.then(() => this.#messages!.flush());
  }

  #oversize(): ProtocolError {
    return new ProtocolError(
      "payload_too_large",
      `Invalid Request: message larger than ${this.#maxMessageBytes} bytes`,
    );
  }

  #decode(line: Uint8Array): string {
    try {
      return this.#decoder.decode(line);
    } catch {
      throw new ProtocolError("parse_error", "Parse error: the message is not valid UTF-8");
    }
  }
}
