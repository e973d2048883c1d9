/**
 * The servers tests/node/node22.test.ts drives, run by Node 22 itself from the sources (Node strips the
 * types): the fixture through `serve()` (WebSocket included, with `ws`), mounted under `/mcp` in Express
 * (`nodeHandler()`), in Fastify with its JSON parser on (the body handed over under `/mcp`, not under
 * `/forgot`) and in Hono on `@hono/node-server` (the README's recipe), and the streamed answer through
 * `serve()`. Prints `{"serve":…,"express":…,"fastify":…,"hono":…,"streaming":…}` (ports) once
 * listening, and closes everything when its stdin closes.
 */
import process from "node:process";
import { serve as honoServe } from "@hono/node-server";
import express from "express";
import Fastify from "fastify";
import { Hono } from "hono";
import { mount } from "hono/mount";
import { serve } from "../../mod.ts";
import { nodeHandler } from "../../src/runtime/node/mod.ts";
import { nodeFixture, streaming } from "./fixture.ts";

const { server } = nodeFixture({ bodyTimeoutMs: 300, maxBodyBytes: 1024 });
const at = { port: 0, hostname: "127.0.0.1", quiet: true };
const served = await serve(server, at);
const stream = await serve(streaming(), at);

const app = express();
app.use("/mcp", nodeHandler(server));
// Express listens itself: its types (@types/express) name @types/node's IncomingMessage, not the runtime's node:http.
const http = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
  const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
});

const mcp = nodeHandler(nodeFixture({ basePath: "/mcp" }).server);
const fastify = Fastify();
fastify.all("/mcp/*", async (request, reply) => {
  reply.hijack();
  await mcp(request.raw, reply.raw, request.body);
});
fastify.all("/forgot/*", async (request, reply) => {
  reply.hijack();
  await mcp(request.raw, reply.raw);
});
await fastify.listen({ port: 0, host: "127.0.0.1" });

const hono = new Hono();
hono.all("/mcp/*", mount(server.fetch));
const honoPort = await new Promise<number>((resolve) => {
  const listening = honoServe({ fetch: hono.fetch, port: 0, hostname: "127.0.0.1" }, (info) => resolve(info.port));
  process.stdin.on("end", () => listening.close());
});

console.log(JSON.stringify({
  serve: served.port,
  express: (http.address() as { port: number }).port,
  fastify: (fastify.server.address() as { port: number }).port,
  hono: honoPort,
  streaming: stream.port,
}));
process.stdin.resume();
process.stdin.on("end", async () => {
  http.closeAllConnections();
  http.close();
  await Promise.all([served.close(), stream.close(), fastify.close()]);
  process.exit(0);
});
