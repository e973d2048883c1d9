/**
 * `@mcplite/sdk/node`: a server in a Node HTTP server that is not `serve()`'s own: `nodeHandler()` for
 * `node:http`, Express, Fastify and Koa (and `attachWebSocket()` of `@mcplite/sdk/websocket` for the WebSocket
 * binding's upgrades). With no framework, `serve(server)` from the main entry does both.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http";
 * import { createServer as createMcpServer } from "@mcplite/sdk";
 * import { nodeHandler } from "@mcplite/sdk/node";
 * import { attachWebSocket } from "@mcplite/sdk/websocket";
 *
 * const server = createMcpServer({ name: "notes", version: "1.0.0" });
 * const http = createServer(nodeHandler(server));
 * attachWebSocket(http, server); // with webSocketBinding() in its bindings, and `npm install ws`
 * http.listen(0, "127.0.0.1", () => http.close());
 * ```
 *
 * @module
 */
export { type NodeHandler, nodeHandler } from "./node-handler.ts";
export type { NodeRequest, NodeResponse } from "./node-types.ts";
