/**
 * `nodeHandler()`: a server as a `node:http` request listener, and as Express and Fastify middleware.
 *
 * @module
 */
import type { Fetchable } from "../listen-types.ts";
import { type AnswerLent, answerNode } from "./answer.ts";
import { answerLazily } from "./outgoing-response.ts";
import { markBounded } from "../body-bound.ts";
import { unrefTimer } from "../unref-timer.ts";
import { concatBytes } from "../../internal/concat-bytes.ts";
import { answers } from "../answer-makers.ts";
import type { NodeRequest, NodeResponse } from "./node-types.ts";

/** What `nodeHandler()` lends {@link answerNode}, as `serve()` lends its listeners (`src/runtime/listen-types.ts`). */
const LENT: AnswerLent = { markBounded, unrefTimer, concatBytes };

/**
 * A `(req, res, next?)` handler, as `node:http`'s `createServer()`, Express's `app.use()` and Connect take
 * it, that also takes the body a framework has already read in place of `next`: Fastify's `request.body`,
 * Koa's `ctx.request.body` (a parsed object, a string, a `Buffer` or other `Uint8Array`, or an
 * `ArrayBuffer`). It resolves when the answer is written, or the client went away; it never rejects.
 */
export type NodeHandler = (req: NodeRequest, res: NodeResponse, body?: unknown) => Promise<void>;

/**
 * Serves a server (or any `{ fetch }`) from a Node HTTP server: `http.createServer(nodeHandler(server))`,
 * Express's `app.use("/mcp", nodeHandler(server))`, Fastify's and Koa's raw request and response.
 * Request bodies stream in within the server's limits; answers stream out (SSE) with backpressure, and
 * the call is cancelled when the client goes away.
 *
 * Mounted under a path (Express's `app.use("/mcp", …)`), the server sees the path under the mount
 * (`/mcp/mcp-lite/v1/calltools` reaches the server as `/mcp-lite/v1/calltools`), unless it was created
 * with that path as its `basePath` (`createServer({ basePath: "/mcp" })`): then it sees the whole path.
 *
 * A body a framework's parser already read is used as the parser left it: Express's `req.body` is found
 * by itself; Fastify and Koa keep theirs elsewhere, so pass it as the third argument
 * (`handler(request.raw, reply.raw, request.body)`, `handler(ctx.req, ctx.res, ctx.request.body)`). A body
 * that was read and not handed over is answered at once with a 500 that says so, never waited for.
 *
 * @param app The server (or any `{ fetch }`).
 * @returns The handler. Its third argument is the body a framework read, or Express's `next` (a
 * function), which gets an error thrown while answering before anything was written.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http";
 * import Fastify from "fastify";
 * import { createServer as createMcpServer, defineTool } from "@mcplite/sdk";
 * import { nodeHandler } from "@mcplite/sdk/node";
 *
 * const server = createMcpServer({ name: "notes", version: "1.0.0", basePath: "/mcp" })
 *   .tool(defineTool("ping").describe("Answers pong").handle(() => "pong"));
 * const http = createServer(nodeHandler(server)).listen(0, "127.0.0.1");
 * // Express: app.use("/mcp", nodeHandler(server)) serves it under /mcp
 *
 * // Fastify, its JSON parser on: hand over the body it read
 * const mcp = nodeHandler(server);
 * const fastify = Fastify();
 * fastify.all("/mcp/*", async (request, reply) => {
 *   reply.hijack();
 *   await mcp(request.raw, reply.raw, request.body);
 * });
 * http.close();
 * ```
 */
export function nodeHandler(app: Fetchable & { readonly basePath?: string }): NodeHandler {
  const base = app.basePath ?? "";
  answerLazily(answers);
  return (req, res, body) => {
    const original = req.originalUrl ?? req.url ?? "/";
    const under = req.url ?? "/";
    const path =
      base !== "" && (original === base || original.startsWith(`${base}/`) || original.startsWith(`${base}?`))
        ? original
        : under;
    const next = typeof body === "function" ? body as (error?: unknown) => void : undefined;
    return answerNode(app, req, res, path, LENT, next === undefined ? body : undefined).catch((error) => {
      if (next !== undefined && !res.headersSent) return next(error);
      res.destroy();
    });
  };
}
