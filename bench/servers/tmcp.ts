/**
 * tmcp 1.20 + `@tmcp/adapter-valibot` + `@tmcp/transport-http` `HttpTransport`, driven with its
 * per-request (2026-07-28) protocol; `path: "/mcp"` set explicitly as its README asks.
 *
 * @module
 */
import { McpServer } from "tmcp";
import { ValibotJsonSchemaAdapter } from "@tmcp/adapter-valibot";
import { HttpTransport } from "@tmcp/transport-http";
import { AddInput, type Fetch } from "./common.ts";

/**
 * tmcp's server with the `add` tool, for every transport the bench serves it on (HTTP, stdio).
 *
 * @returns The server.
 */
export function tmcpServer(): McpServer {
  const server = new McpServer(
    { name: "bench", version: "1.0.0", description: "bench" },
    { adapter: new ValibotJsonSchemaAdapter(), capabilities: { tools: { listChanged: true } } },
  );
  server.tool({ name: "add", description: "Adds two numbers", schema: AddInput }, ({ a, b }) => {
    const structuredContent = { sum: a + b };
    // tmcp's types tie structuredContent to an outputSchema (which it would then validate); no peer
    // declares one here, so the same result is returned as is (tmcp sends it unchanged).
    return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent } as never;
  });
  return server;
}

/**
 * Creates the server.
 *
 * @returns Its fetch handler.
 */
export function create(): Fetch {
  const server = tmcpServer();
  const transport = new HttpTransport(server, { path: "/mcp" });
  return async (request) => (await transport.respond(request)) ?? new Response("Not Found", { status: 404 });
}

/** The in-process instance. */
export const tmcp: Fetch = create();
