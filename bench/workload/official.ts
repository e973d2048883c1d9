/**
 * The peer: the official TypeScript SDK (`@modelcontextprotocol/sdk` 1.x) written to the same contract
 * the way the benchmark's Node server is: Express with `express.json()`, and for every POST to `/mcp` a
 * new `McpServer` with the three tools (zod shapes) and a stateless `StreamableHTTPServerTransport`
 * (no session id, so a client sends no `DELETE`); `GET`/`DELETE /mcp` answer 405. Same I/O as ours
 * (`tools.ts`). One process; `worker.ts` runs several.
 *
 * @module
 */
import express from "express";
import type { Server } from "node:http";
// The package's `./*` export maps types to `*.d.ts` (`mcp.js.d.ts`): the types named for the type checker.
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/streamableHttp"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { type Backends, backendsFromEnv, checkout, getUserCart, searchProducts } from "./tools.ts";

const text = (result: object) => ({ content: [{ type: "text" as const, text: JSON.stringify(result) }] });

/** A new server with the three tools, as the benchmark's Node server builds one per request. */
function mcpServer(b: Backends): McpServer {
  const server = new McpServer({ name: "BenchmarkNodejsServer", version: "1.0.0" });
  server.registerTool("search_products", {
    description: "Search products by category and price range, merged with popularity data",
    inputSchema: {
      category: z.string().default("Electronics"),
      min_price: z.number().default(50),
      max_price: z.number().default(500),
      limit: z.number().int().default(10),
    },
  }, async (input) => text(await searchProducts(b, input)));
  server.registerTool("get_user_cart", {
    description: "Get user cart details with recent order history",
    inputSchema: { user_id: z.string().default("user-00042") },
  }, async (input) => text(await getUserCart(b, input)));
  server.registerTool("checkout", {
    description: "Process checkout: calculate total, update rate limit, record history",
    inputSchema: {
      user_id: z.string().default("user-00042"),
      items: z.array(z.object({ product_id: z.number().int(), quantity: z.number().int() }))
        .default([{ product_id: 42, quantity: 2 }, { product_id: 1337, quantity: 1 }]),
    },
  }, async (input) => text(await checkout(b, input)));
  return server;
}

/**
 * Listens on `port`.
 *
 * @param port The port (shared by every worker).
 * @returns The HTTP server.
 */
export function start(port: number): Promise<Server> {
  const b = backendsFromEnv("nodejs-official");
  const app = express();
  app.use(express.json());
  app.post("/mcp", async (req, res) => {
    const server = mcpServer(b);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    try {
      await server.connect(transport);
      // Express 5 types its request on another copy of @types/node than the SDK: the same object at run time.
      await transport.handleRequest(req as never, res as never, req.body);
    } catch (error) {
      if (!res.headersSent) res.status(500).json({ error: String(error) });
    } finally {
      transport.close();
      server.close();
    }
  });
  app.get("/mcp", (_req, res) => void res.status(405).end());
  app.delete("/mcp", (_req, res) => void res.status(405).end());
  app.get("/health", (_req, res) => void res.json({ status: "ok", server_type: b.serverType }));
  return new Promise((resolve) => {
    const server = app.listen(port, "127.0.0.1", () => resolve(server as unknown as Server));
  });
}
