/**
 * Serves a server on Node for the WebSocket tests: `server.fetch` on `@hono/node-server`, its upgrades
 * answered by `attachWebSocket()`. Prints `{"port":…}` once listening, and stops when stdin closes.
 */
import { serve } from "@hono/node-server";
import type { Server } from "node:http";
import process from "node:process";
import { attachWebSocket } from "../../src/websocket/mod.ts";

/**
 * Listens on 127.0.0.1 (port 0) until stdin closes.
 *
 * @param app The server.
 */
export function listenOnNode(app: { fetch(request: Request): Response | Promise<Response> }): void {
  const httpServer = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
    console.log(JSON.stringify({ port: info.port }));
  }) as Server;
  attachWebSocket(httpServer, app);
  process.stdin.resume();
  process.stdin.on("end", () => {
    httpServer.closeAllConnections();
    httpServer.close(() => process.exit(0));
  });
}
