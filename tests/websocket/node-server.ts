/**
 * The WebSocket test server on Node: `server.fetch` on `@hono/node-server`, its upgrades answered by
 * `attachWebSocket()`. Run by tests/websocket/node.test.ts with Node 22 (`node node-server.ts [auth]`);
 * prints `{"port":…}` once listening, and stops when its stdin closes.
 */
import { serve } from "@hono/node-server";
import type { Server } from "node:http";
import process from "node:process";
import { attachWebSocket } from "../../src/websocket/mod.ts";
import { fixture } from "./fixture.ts";

const { server } = fixture(process.argv.includes("auth"));
const httpServer = serve({ fetch: server.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
  console.log(JSON.stringify({ port: info.port }));
}) as Server;
attachWebSocket(httpServer, server);
process.stdin.resume();
process.stdin.on("end", () => {
  httpServer.closeAllConnections();
  httpServer.close(() => process.exit(0));
});
