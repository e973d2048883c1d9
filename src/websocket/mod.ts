/**
 * `@mcplite/sdk/websocket`: MCP-lite over a WebSocket (MCP-lite spec v0.042 §8.2). List
 * `webSocketBinding()` in `createServer({ bindings })`; `serve(server)` upgrades on Deno and Bun, a
 * Worker's `fetch` on workerd. With a bare `Bun.serve`, spread `bunWebSocket(server)` into its options;
 * on Node, `attachWebSocket(httpServer, server)` answers the HTTP server's upgrades (with the `ws` package).
 * A browser sends its token as the subprotocol `bearerProtocol(token)` beside `mcp-lite.v1`.
 *
 * @example
 * ```ts ignore
 * import { createServer, defineTool, mcpLiteBinding, serve } from "@mcplite/sdk";
 * import { webSocketBinding } from "@mcplite/sdk/websocket";
 *
 * const server = createServer({ name: "notes", version: "1.0.0", bindings: [mcpLiteBinding(), webSocketBinding()] })
 *   .tool(defineTool("ping").handle(() => "pong"));
 * await serve(server); // ws://127.0.0.1:8000/mcp-lite/v1/ws
 * ```
 *
 * @module
 */
export { webSocketBinding } from "./websocket-binding.ts";
export type { WebSocketOptions } from "./websocket-binding.ts";
export { bunWebSocket } from "../runtime/bun/websocket-upgrade.ts";
export type { BunWebSocketOptions } from "../runtime/bun/websocket-upgrade.ts";
export { attachWebSocket } from "../runtime/node/websocket-upgrade.ts";
export { bearerProtocol, WEBSOCKET_PROTOCOL } from "../codec/websocket-bearer.ts";
