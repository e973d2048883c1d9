/**
 * `createStdioTransport()`: the client talks to a local server it launches as a child process, over
 * newline-delimited JSON-RPC on the child's stdin and stdout (MCP 2025-11-25, Transports: stdio), as
 * desktop hosts do. MCP by default (2026-07-28 probed with `server/discover`, else the 2025 handshake),
 * or MCP-lite over stdio.
 *
 * @module
 */
import type { RequestContext, ToolCallRequest, Transport } from "../transport.ts";
import type { Reply, ToolListing } from "../transport.ts";
import { TransportError } from "../errors.ts";
import { spawnChild, type SpawnOptions } from "./child-process.ts";
import { createMcpTransport } from "./mcp.ts";
import { createMcpliteMessageTransport, MCPLITE_BASE_PATH } from "./mcplite.ts";
import { StdioConnection } from "./stdio-connection.ts";
import { withPeer } from "../carry-trace.ts";

/** Options of {@link createStdioTransport}. */
export interface StdioTransportOptions extends SpawnOptions {
  /** The wire: `mcp` (default: 2026-07-28 probed, else 2025) or `mcp-lite`. */
  readonly wire?: "mcp" | "mcp-lite";
  /** The MCP revision to speak (a 2025 one skips the probe). */
  readonly protocolVersion?: string;
  /** `inherit` forwards the server's stderr to this process's; `pipe` (default) keeps its tail for errors. */
  readonly stderr?: "inherit" | "pipe";
  /** How long `close()` waits at each step (stdin closed, SIGTERM, SIGKILL), in ms (default 2000). */
  readonly closeGraceMs?: number;
}

/** The requests' origin: nothing is fetched, the URL only tells the wire's paths apart. */
const BASE = "http://stdio.invalid";

/**
 * Creates a transport that launches a server and speaks to it over stdio. The process starts on the
 * first request; `client.close()` ends it (stdin closed, then SIGTERM, then SIGKILL). A server that
 * exits or writes something that is not JSON-RPC fails the calls in flight with its exit code and the
 * tail of its stderr.
 *
 * @param options The command, its arguments, environment and directory; the wire.
 * @returns The transport, for `createClient(transport)`.
 *
 * @example
 * ```ts ignore
 * import { createClient } from "@mcplite/sdk/client";
 * import { createStdioTransport } from "@mcplite/sdk/client/stdio";
 *
 * const client = createClient(createStdioTransport({ command: "deno", args: ["run", "-A", "server.ts"] }));
 * console.log(await client.listTools());
 * await client.close();
 * ```
 */
export function createStdioTransport(options: StdioTransportOptions): Transport {
  return new StdioTransport(options);
}

export type { SpawnOptions };

class StdioTransport implements Transport {
  readonly #options: StdioTransportOptions;
  readonly #inner: Transport;
  #connection: Promise<StdioConnection> | undefined;

  constructor(options: StdioTransportOptions) {
    if (typeof options?.command !== "string" || options.command === "") {
      throw new TypeError("createStdioTransport needs a command");
    }
    this.#options = options;
    const fetch = async (request: Request) => (await this.#connect()).fetch(request);
    const inner = options.wire === "mcp-lite"
      ? createMcpliteMessageTransport(BASE + MCPLITE_BASE_PATH, fetch)
      : createMcpTransport(BASE + "/mcp", { fetch, protocolVersion: options.protocolVersion });
    // The requests travel on the child's stdin and stdout: a pipe, no server address.
    this.#inner = withPeer(inner, { transport: "pipe" });
  }

  get wire(): string {
    return this.#inner.wire;
  }

  get tracesRequests(): boolean {
    return this.#inner.tracesRequests === true;
  }

  listTools(ctx: RequestContext): Promise<ToolListing> {
    return this.#inner.listTools(ctx);
  }

  callTool(call: ToolCallRequest, ctx: RequestContext): Promise<Reply> {
    return this.#inner.callTool(call, ctx);
  }

  request(method: string, params: Record<string, unknown>, ctx: RequestContext): Promise<Reply> {
    if (this.#inner.request === undefined) {
      return Promise.reject(new TypeError(`${method} is not available on ${this.#inner.wire}`));
    }
    return this.#inner.request(method, params, ctx);
  }

  discover(ctx: RequestContext): Promise<Record<string, unknown>> {
    if (this.#inner.discover === undefined) {
      return Promise.reject(new TypeError(`server/discover is not available on ${this.#inner.wire}`));
    }
    return this.#inner.discover(ctx);
  }

  async close(): Promise<void> {
    const connecting = this.#connection;
    if (connecting === undefined) return;
    await this.#inner.close?.().catch(() => {});
    const connection = await connecting.catch(() => undefined);
    await connection?.close(this.#options.closeGraceMs);
    this.#connection = undefined;
  }

  #connect(): Promise<StdioConnection> {
    this.#connection ??= spawnChild(this.#options).then(
      (child) => new StdioConnection(child, { inheritStderr: this.#options.stderr === "inherit" }),
      (error: unknown) => {
        this.#connection = undefined;
        throw new TransportError(
          `cannot start ${this.#options.command}: ${error instanceof Error ? error.message : error}`,
          {
            cause: error,
          },
        );
      },
    );
    return this.#connection;
  }
}
