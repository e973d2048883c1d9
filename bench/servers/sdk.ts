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

/**
 * Creates the server.
 *
 * @returns Its fetch handler.
 */
export function create(): Fetch {
  const inputSchema = toStandardJsonSchema(AddInput);
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "bench", version: "1.0.0" });
    server.registerTool("add", { description: "Adds two numbers", inputSchema }, ({ a, b }) => {
      const structuredContent = { sum: a + b };
      return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
    });
    return server;
  });
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
