/**
 * `createStdioTransport()`: the client talks to a local server it launches as a child process, over
 * newline-delimited JSON-RPC on the child's stdin and stdout (MCP 2025-11-25, Transports: stdio), as
 * desktop hosts do. MCP by default (2026-07-28 probed with `server/discover`, else the 2025 handshake),
 * or MCP-lite over stdio.
 *
 * @module
 */
import type { RequestContext, ToolCallRequest, Transport } from "../transport.ts";
import type { MessageMiddleware } from "../../message-middleware/message-middleware.ts";
import { McpliteError } from "../../errors/error.ts";
import type { Reply, ToolListing } from "../transport.ts";
import { transportError } from "../errors.ts";
import { spawnChild, type SpawnOptions } from "./child-process.ts";
import { createPipedMcpTransport } from "./mcp.ts";
import { isLegacyVersion } from "./legacy-handshake.ts";
import { createMcpliteMessageTransport, MCPLITE_BASE_PATH } from "./mcplite.ts";
import { StdioConnection } from "./stdio-connection.ts";
import { withPeer } from "../carry-trace.ts";
import { isObject } from "../../internal/is-object.ts";
import { type NoticeListener, SERVER_NOTICES } from "./server-notices.ts";

/** Options of {@link createStdioTransport}. */
export interface StdioTransportOptions extends SpawnOptions {
  /** The wire: `mcp` (default: 2026-07-28 probed, else 2025) or `mcp-lite`. */
  readonly wire?: "mcp" | "mcp-lite";
  /**
   * The MCP revision to speak: a 2025 one skips the probe; with 2026-07-28 the probe's answer is waited for however
   * long the server takes to start (no `initialize` goes out, `probeWaitMs` does not apply).
   */
  readonly protocolVersion?: string;
  /** `inherit` forwards the server's stderr to this process's; `pipe` (default) keeps its tail for errors. */
  readonly stderr?: "inherit" | "pipe";
  /** How long `close()` waits at each step (stdin closed, SIGTERM, SIGKILL), in ms (default 2000). */
  readonly closeGraceMs?: number;
  /**
   * The most bytes one line the server writes may hold (default 16 MiB): past it the connection fails
   * (`payload_too_large`) and the server process is ended.
   */
  readonly maxResponseBytes?: number;
  /**
   * How long `server/discover` waits alone before `initialize` goes out too, in ms (default 5000): the
   * MCP 2026-07-28 probe, which a 2025 server may never answer. Its late answer still counts, so a
   * server that starts slowly is no verdict; a host that knows its server's revision sets `protocolVersion`
   * instead.
   */
  readonly probeWaitMs?: number;
}

/** The requests' origin: nothing is fetched, the URL only tells the wire's paths apart. */
const BASE = "http://stdio.invalid";
/** The default of {@link StdioTransportOptions.probeWaitMs}. */
const PROBE_FALLBACK_MS = 5000;

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
  #live: StdioConnection | undefined;
  readonly #listeners = new Set<NoticeListener>();
  #intercept: readonly MessageMiddleware[] | undefined;

  constructor(options: StdioTransportOptions) {
    if (typeof options?.command !== "string" || options.command === "") {
      throw new TypeError("createStdioTransport needs a command");
    }
    const probeWaitMs = options.probeWaitMs ?? PROBE_FALLBACK_MS;
    if (!Number.isFinite(probeWaitMs) || probeWaitMs < 0) throw new TypeError("probeWaitMs must be 0 ms or more");
    this.#options = options;
    const fetch = async (request: Request) => (await this.#connect()).fetch(request);
    const inner = options.wire === "mcp-lite"
      ? createMcpliteMessageTransport(BASE + MCPLITE_BASE_PATH, fetch)
      : createPipedMcpTransport(BASE + "/mcp", { fetch, protocolVersion: options.protocolVersion }, probeWaitMs);
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
    return this.#named(this.#inner.listTools(ctx), ctx);
  }

  callTool(call: ToolCallRequest, ctx: RequestContext): Promise<Reply> {
    return this.#named(this.#inner.callTool(call, ctx), ctx);
  }

  request(method: string, params: Record<string, unknown>, ctx: RequestContext): Promise<Reply> {
    if (this.#inner.request === undefined) {
      return Promise.reject(new TypeError(`${method} is not available on ${this.#inner.wire}`));
    }
    return this.#named(this.#inner.request(method, params, ctx), ctx);
  }

  discover(ctx: RequestContext): Promise<Record<string, unknown>> {
    if (this.#inner.discover === undefined) {
      return Promise.reject(new TypeError(`server/discover is not available on ${this.#inner.wire}`));
    }
    return this.#named(this.#inner.discover(ctx), ctx);
  }

  intercept(middleware: readonly MessageMiddleware[]): void {
    this.#intercept = middleware;
  }

  /** Hears what the server notifies outside any request, on this child and any started after it. */
  [SERVER_NOTICES](listener: NoticeListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  #notice(message: Record<string, unknown>): void {
    const params = isObject(message.params) ? message.params as Record<string, unknown> : {};
    for (const listener of this.#listeners) listener(String(message.method), params);
  }

  async close(): Promise<void> {
    const connecting = this.#connection;
    if (connecting === undefined) return;
    await this.#inner.close?.().catch(() => {});
    const connection = await connecting.catch(() => undefined);
    await connection?.close(this.#options.closeGraceMs);
    this.#connection = undefined;
    this.#live = undefined;
  }

  /**
   * A timeout before the server said anything at all names the command and what went unanswered. The
   * client's deadline reason is what the caller receives (the abort wins), so the words go onto it.
   */
  async #named<T>(pending: Promise<T>, ctx: RequestContext): Promise<T> {
    try {
      return await pending;
    } catch (error) {
      const reason: unknown = ctx.signal.aborted ? ctx.signal.reason : error;
      if (
        reason instanceof McpliteError && reason.code === "timeout" && this.#live !== undefined && !this.#live.heard
      ) {
        const ms = (reason.data as { limitMs?: unknown } | undefined)?.limitMs;
        const command = [this.#options.command, ...this.#options.args ?? []].join(" ");
        const version = this.#options.protocolVersion;
        const asked = this.wire !== "mcp"
          ? ""
          : version === undefined
          ? ": neither server/discover nor initialize was answered"
          : isLegacyVersion(version)
          ? ": initialize went unanswered"
          : ": server/discover went unanswered";
        reason.message = `Timed out: ${command} answered nothing in ${ms} ms${asked}; is it a stdio server?`;
      }
      throw error;
    }
  }

  #connect(): Promise<StdioConnection> {
    this.#connection ??= spawnChild(this.#options).then(
      (child) => {
        const live = new StdioConnection(child, {
          inheritStderr: this.#options.stderr === "inherit",
          maxLineBytes: this.#options.maxResponseBytes,
        });
        live.onNotice = (message) => this.#notice(message);
        if (this.#intercept !== undefined) live.intercept(this.#intercept, "stdio");
        return this.#live = live;
      },
      (error: unknown) => {
        this.#connection = undefined;
        throw transportError(
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
