/**
 * `nodeHandler()`: a server as a `node:http` request listener, and as Express and Fastify middleware.
 *
 * @module
 */
import type { Fetchable } from "../server/serve.ts";
import { answerNode } from "./answer.ts";
import type { NodeRequest, NodeResponse } from "./types.ts";

/** A `(req, res, next?)` handler, as `node:http`'s `createServer()`, Express's `app.use()` and Connect take it. */
export type NodeHandler = (req: NodeRequest, res: NodeResponse, next?: (error?: unknown) => void) => void;

/**
 * Serves a server (or any `{ fetch }`) from a Node HTTP server: `http.createServer(nodeHandler(server))`,
 * Express's `app.use("/mcp", nodeHandler(server))`, or a Fastify route with the raw request and response.
 * Request bodies stream in within the server's limits; answers stream out (SSE) with backpressure, and
 * the call is cancelled when the client goes away.
 *
 * Mounted under a path (Express's `app.use("/mcp", …)`), the server sees the path under the mount
 * (`/mcp/mcp-lite/v1/calltools` reaches the server as `/mcp-lite/v1/calltools`), unless it was created
 * with that path as its `basePath` (`createServer({ basePath: "/mcp" })`): then it sees the whole path.
 * A body an Express body parser already read (`express.json()`) is handed on as it was parsed.
 *
 * @param app The server (or any `{ fetch }`).
 * @returns The handler; with Express, an error thrown while answering goes to `next`.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http";
 * import { createServer as createMcpServer, defineTool } from "@mcplite/sdk";
 * import { nodeHandler } from "@mcplite/sdk/node";
 *
 * const server = createMcpServer({ name: "notes", version: "1.0.0" }).tool(defineTool("ping").handle(() => "pong"));
 * const http = createServer(nodeHandler(server)).listen(0, "127.0.0.1");
 * // Express: app.use("/mcp", nodeHandler(server)) serves it under /mcp
 * http.close();
 * ```
 */
export function nodeHandler(app: Fetchable & { readonly basePath?: string }): NodeHandler {
  const base = app.basePath ?? "";
  return (req, res, next) => {
    const original = req.originalUrl ?? req.url ?? "/";
    const under = req.url ?? "/";
    const path =
      base !== "" && (original === base || original.startsWith(`${base}/`) || original.startsWith(`${base}?`))
        ? original
        : under;
    answerNode(app, req, res, path).catch((error) => {
      if (next !== undefined && !res.headersSent) return next(error);
      res.destroy();
    });
  };
}
