/**
 * `webSocketBinding()`: MCP-lite over a WebSocket (MCP-lite spec v0.042 §8.2, "persistent
 * connections and bidirectional flow"), at `GET {basePath}/ws`. The messages are those of MCP-lite
 * over stdio, one per text frame; the upgrade passes the server's gate like any HTTP request (Host and
 * Origin, then `auth`, which reads a browser's token from the subprotocol, `src/codec/websocket-bearer.ts`).
 * Every message on the socket runs with the upgrade's caller and headers (`ctx.auth`, `ctx.meta.headers`).
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";
import { registryOf } from "../core/mod.ts";
import { acceptWebSocket, type Binding, normalisePath, type Route } from "../server/mod.ts";
import { errorMessage } from "../bindings/jsonrpc.ts";
import { jsonRpcErrorResponse, wireErrorResponse } from "../bindings/jsonrpc-error.ts";
import { type McpOptions, socketCarriers } from "../assembly/socket-carriers.ts";
import { errorCodeToWire } from "../errors/mcplite-codes.ts";
import { WEBSOCKET_PROTOCOL } from "../codec/websocket-bearer.ts";
import { socketConnection } from "./socket-connection.ts";

/** Options of {@link webSocketBinding}. */
export interface WebSocketOptions {
  /** The base path; the socket is at `{basePath}/ws` (default `/mcp-lite/v1`, as MCP-lite's HTTP endpoints). */
  readonly basePath?: string;
  /** The longest message accepted, in bytes (default 4 MiB); a longer one is answered with an error, the socket stays open. */
  readonly maxMessageBytes?: number;
  /**
   * The most bytes queued for one socket whose peer does not read (`bufferedAmount`, default 8 MiB):
   * past it the socket is closed with 1008 (RFC 6455 §7.4.1) and its running calls abort.
   */
  readonly maxBufferedBytes?: number;
  /** Seconds a socket may go without answering a ping before Deno closes it (default 30; Bun's `idleTimeout` is 120). */
  readonly idleTimeoutS?: number;
  /** The MCP options, for the MCP messages a socket may also carry (page size, caching hints). */
  readonly mcp?: McpOptions;
}

const NOT_ALLOWED = new ProtocolError(
  "method_not_allowed",
  "Method not allowed: use GET with Upgrade: websocket",
);

/**
 * Creates the WebSocket binding: `GET {basePath}/ws` upgrades to a socket that carries MCP-lite's
 * `tools/list` and `tools/call` (and MCP's messages) as JSON-RPC text frames, many requests at once.
 * Runs on Deno, on Bun through `serve()` (or `Bun.serve({ ...bunWebSocket(server) })`), on
 * Workers, and on Node through `attachWebSocket(httpServer, server)` (its fetch adapters cannot upgrade).
 *
 * @param options The path, the message limit, the keep-alive, the MCP options.
 * @returns The binding, for `createServer({ bindings })`.
 * @throws {TypeError} For a `maxMessageBytes` or `maxBufferedBytes` that is not a positive integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer, defineTool, mcpLiteBinding } from "../../mod.ts";
 * import { webSocketBinding } from "./websocket-binding.ts";
 *
 * const server = createServer({ name: "demo", version: "1.0.0", bindings: [mcpLiteBinding(), webSocketBinding()] })
 *   .tool(defineTool("ping").handle(() => "pong"));
 * // serve(server), then: new WebSocket("ws://127.0.0.1:8000/mcp-lite/v1/ws", "mcp-lite.v1")
 * const plain = await server.fetch(new Request("http://localhost/mcp-lite/v1/ws"));
 * assert.equal(plain.status, 426); // a GET without `Upgrade: websocket`
 * ```
 */
export function webSocketBinding(options: WebSocketOptions = {}): Binding {
  const path = normalisePath(options.basePath ?? "/mcp-lite/v1") + "/ws";
  const maxMessageBytes = options.maxMessageBytes ?? 4 * 1024 * 1024;
  if (!(Number.isInteger(maxMessageBytes) && maxMessageBytes > 0)) {
    throw new TypeError("maxMessageBytes must be a positive integer");
  }
  const maxBufferedBytes = options.maxBufferedBytes ?? 8 * 1024 * 1024;
  if (!(Number.isInteger(maxBufferedBytes) && maxBufferedBytes > 0)) {
    throw new TypeError("maxBufferedBytes must be a positive integer");
  }
  const idleTimeoutS = options.idleTimeoutS ?? 30;
  const carriers = socketCarriers(options.mcp);
  return function webSocket(core) {
    const report = (error: unknown) => registryOf(core).runtime.onError?.(error);
    const route: Route = {
      methods: "GET",
      refuse: (error) => jsonRpcErrorResponse(null, error, errorCodeToWire, report),
      handle(request, host) {
        if (request.method !== "GET") {
          return Promise.resolve(jsonRpcErrorResponse(null, NOT_ALLOWED, errorCodeToWire, report, { allow: "GET" }));
        }
        if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
          // RFC 9110 §15.5.22: 426 names the protocol to upgrade to.
          const message = errorMessage(null, -32600, "Upgrade Required: open a WebSocket (Upgrade: websocket)");
          return Promise.resolve(wireErrorResponse(message, 426, { upgrade: "websocket", connection: "Upgrade" }));
        }
        const offered = (request.headers.get("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim());
        // RFC 6455 §4.2.2: select one the client offered, never the one carrying its token.
        const protocol = offered.includes(WEBSOCKET_PROTOCOL) ? WEBSOCKET_PROTOCOL : undefined;
        // A copy: Deno's request is closed once upgraded, and its headers with it.
        const events = socketConnection(core, host, new Headers(request.headers), {
          maxMessageBytes,
          maxBufferedBytes,
          carriers,
        });
        try {
          return Promise.resolve(acceptWebSocket(request, events, { protocol, idleTimeoutS }));
        } catch (error) {
          const message = errorMessage(null, -32603, error instanceof Error ? error.message : String(error));
          return Promise.resolve(wireErrorResponse(message, 501));
        }
      },
    };
    return { routes: new Map([[path, route]]) };
  };
}
