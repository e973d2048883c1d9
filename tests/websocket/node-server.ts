/**
 * The WebSocket test server on Node: `server.fetch` on `@hono/node-server`, its upgrades answered by
 * `attachWebSocket()`. Run by tests/websocket/node.test.ts with Node 22 (`node node-server.ts [auth]`);
 * prints `{"port":…}` once listening, and stops when its stdin closes.
 */
import process from "node:process";
import { listenOnNode } from "./node-listen.ts";
import { fixture } from "./fixture.ts";

listenOnNode(fixture(process.argv.includes("auth")).server);
