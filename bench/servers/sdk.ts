/**
 * The official SDK v2 (`@modelcontextprotocol/server` 2.4): `createMcpHandler(factory)` (2026-07-28,
 * with its default stateless 2025 fallback), behind `hostHeaderValidationResponse` and
 * `originValidationResponse` as its docs ask for a bare fetch mount; valibot through
 * `toStandardJsonSchema`.
 *
 * @module
 */
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  McpServer,
  originValidationResponse,
} from "@modelcontextprotocol/server";
import { AddInput, type Fetch } from "./common.ts";

const inputSchema = toStandardJsonSchema(AddInput);

/**
 * The SDK's server with the `add` tool, for every transport the bench serves it on (HTTP, stdio).
 *
 * @returns The server.
 */
export function sdkServer(): McpServer {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  server.registerTool("add", { description: "Adds two numbers", inputSchema }, ({ a, b }) => {
    const structuredContent = { sum: a + b };
    return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
  });
  return server;
}

/**
 * Creates the server.
 *
 * @returns Its fetch handler.
 */
export function create(): Fetch {
  const handler = createMcpHandler(sdkServer);
  const hosts = localhostAllowedHostnames();
  const origins = localhostAllowedOrigins();
  return (request) =>
    Promise.resolve(
      hostHeaderValidationResponse(request, hosts) ?? originValidationResponse(request, origins) ??
        handler.fetch(request),
    );
}

/** The in-process instance. */
export const sdk: Fetch = create();
