/**
 * mcp-lite 0.10: `McpServer` + the stateless `StreamableHttpTransport` (no session adapter), with
 * `allowedHosts` set as its README asks for local servers, and valibot through `schemaAdapter`.
 *
 * @module
 */
import type * as v from "valibot";
import { toJsonSchema } from "@valibot/to-json-schema";
import { McpServer, StreamableHttpTransport } from "mcp-lite";
import { AddInput, type Fetch, loopbackHosts } from "./common.ts";

/**
 * Creates the server.
 *
 * @param port The port it listens on, for its Host check (it compares `host:port` exactly).
 * @returns Its fetch handler.
 */
export function create(port?: number): Fetch {
  const mcp = new McpServer({
    name: "bench",
    version: "1.0.0",
    schemaAdapter: (schema) => toJsonSchema(schema as v.GenericSchema) as Record<string, unknown>,
  });
  mcp.tool("add", {
    description: "Adds two numbers",
    inputSchema: AddInput,
    handler: ({ a, b }: { a: number; b: number }) => {
      const structuredContent = { sum: a + b };
      return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
    },
  });
  const transport = new StreamableHttpTransport({ allowedHosts: loopbackHosts(port) });
  return transport.bind(mcp) as Fetch;
}

/** The in-process instance. */
export const mcpLite: Fetch = create();
