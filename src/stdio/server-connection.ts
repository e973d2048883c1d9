/**
 * One stdio connection: lines in, messages out. Each line is decoded (UTF-8, fatal), parsed (bounded
 * nesting) and handed to MCP or MCP-lite; requests run concurrently and answer in whatever order they
 * finish (JSON-RPC 2.0 §6 lets responses come in any order; the ids match them up).
 *
 * @module
 */
import { ErrorCode, ProtocolError } from "../core/mod.ts";
import { jsonRpcErrorMessage } from "../bindings/jsonrpc-error.ts";
import { createMcpContext } from "../bindings/mcp/handler.ts";
import { type McpOptions, resolveMcpSettings } from "../bindings/mcp/options.ts";
import { legacyErrorToWire } from "../bindings/mcp/status.ts";
import type { ServerCore } from "../server/binding.ts";
import { parseJson } from "../server/parse-json.ts";
import { type Line, OVERSIZE } from "../internal/line-splitter.ts";
import type { LineWriter } from "./line-writer.ts";
import { isLiteMessage, LiteOverStdio } from "./lite-over-stdio.ts";
import { McpOverStdio } from "./mcp-over-stdio.ts";

/**
 * Handles the messages of one connection of `serveStdio()` (the server's side; the client's is
 * `StdioConnection` in `client/transports`).
 */
export class ServerStdioConnection {
  readonly #core: ServerCore;
  readonly #out: LineWriter;
  readonly #mcp: McpOverStdio;
  readonly #lite: LiteOverStdio;
  readonly #decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  readonly #maxLineBytes: number;

  /**
   * Creates a connection.
   *
   * @param core The server's registry and options.
   * @param out Where messages go.
   * @param options The MCP options, and the longest line accepted (for its error message).
   */
  constructor(core: ServerCore, out: LineWriter, options: { mcp?: McpOptions; maxLineBytes: number }) {
    this.#core = core;
    this.#out = out;
    this.#maxLineBytes = options.maxLineBytes;
    const ctx = createMcpContext(core, resolveMcpSettings(options.mcp ?? {}));
    this.#mcp = new McpOverStdio(ctx, out);
    // One table and one scope for both: a notifications/cancelled (routed as MCP) reaches MCP-lite calls too.
    this.#lite = new LiteOverStdio(core, out, ctx.inFlight, this.#mcp, ctx.settings.holdMs);
  }

  /**
   * Handles one line.
   *
   * @param line Its bytes, or the report that it was too long.
   */
  receive(line: Line): void {
    let message: unknown;
    try {
      if (line === OVERSIZE) {
        throw new ProtocolError(
          ErrorCode.PayloadTooLarge,
          `Invalid Request: message larger than ${this.#maxLineBytes} bytes`,
        );
      }
      message = parseJson(this.#decode(line), this.#core.options.maxJsonDepth);
      if (Array.isArray(message)) {
        throw new ProtocolError(ErrorCode.InvalidRequest, "Invalid Request: batches are not supported on stdio");
      }
    } catch (error) {
      this.#out.line(
        jsonRpcErrorMessage(null, error, legacyErrorToWire, (e) => this.#core.registry.runtime.onError?.(e)),
      );
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
    return this.#mcp.close(reason);
  }

  #decode(line: Uint8Array): string {
    try {
      return this.#decoder.decode(line);
    } catch {
      throw new ProtocolError(ErrorCode.ParseError, "Parse error: the message is not valid UTF-8");
    }
  }
}
