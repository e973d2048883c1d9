/**
 * The scaling scenario's servers: each registers `n` tools (the `add` tool under the names `tool_0`…)
 * the way its docs recommend, and answers through the same fetch mount as in the other scenarios.
 *
 * @module
 */
import type * as v from "valibot";
import { toJsonSchema, toStandardJsonSchema } from "@valibot/to-json-schema";
import { createMcpHandler, McpServer as SdkServer } from "@modelcontextprotocol/server";
import { McpServer as LiteServer, StreamableHttpTransport } from "mcp-lite";
import { McpServer as TmcpServer } from "tmcp";
import { ValibotJsonSchemaAdapter } from "@tmcp/adapter-valibot";
import { HttpTransport } from "@tmcp/transport-http";
import { AddInput, type Fetch, loopbackHosts } from "./common.ts";
import { oursWithTools } from "./ours.ts";

/** One server of the scenario. */
export interface ScaleServer {
  /** Its row name. */
  name: string;
  /** The MCP revision its requests use (mcp-lite 0.10 speaks the 2025 ones). */
  era: "2025" | "2026";
  /** Builds it with `n` tools; returns its fetch handler. */
  build(n: number): Fetch;
}

const describe = (i: number) => `Adds two numbers (variant ${i})`;
const sum = ({ a, b }: { a: number; b: number }) => {
  const structuredContent = { sum: a + b };
  return { content: [{ type: "text" as const, text: JSON.stringify(structuredContent) }], structuredContent };
};

/** Every server, ours with its default whole lists and with pages of 100. */
export const SCALE_SERVERS: ScaleServer[] = [
  { name: "ours", era: "2026", build: (n) => oursWithTools(n) },
  { name: "ours · pageSize 100", era: "2026", build: (n) => oursWithTools(n, 100) },
  {
    // Its docs' stateless mount: a factory that builds the server for each request.
    name: "SDK v2",
    era: "2026",
    build(n) {
      const inputSchema = toStandardJsonSchema(AddInput);
      const handler = createMcpHandler(() => {
        const server = new SdkServer({ name: "bench", version: "1.0.0" });
        for (let i = 0; i < n; i++) server.registerTool(`tool_${i}`, { description: describe(i), inputSchema }, sum);
        return server;
      });
      return (request) => handler.fetch(request);
    },
  },
  {
    name: "mcp-lite",
    era: "2025",
    build(n) {
      const mcp = new LiteServer({
        name: "bench",
        version: "1.0.0",
        schemaAdapter: (schema) => toJsonSchema(schema as v.GenericSchema) as Record<string, unknown>,
      });
      for (let i = 0; i < n; i++) {
        mcp.tool(`tool_${i}`, { description: describe(i), inputSchema: AddInput, handler: sum });
      }
      return new StreamableHttpTransport({ allowedHosts: loopbackHosts() }).bind(mcp) as Fetch;
    },
  },
  {
    name: "tmcp",
    era: "2026",
    build(n) {
      const server = new TmcpServer(
        { name: "bench", version: "1.0.0", description: "bench" },
        { adapter: new ValibotJsonSchemaAdapter(), capabilities: { tools: { listChanged: true } } },
      );
      for (let i = 0; i < n; i++) {
        server.tool({ name: `tool_${i}`, description: describe(i), schema: AddInput }, (args) => sum(args) as never);
      }
      const transport = new HttpTransport(server, { path: "/mcp" });
      return async (request) => (await transport.respond(request)) ?? new Response("Not Found", { status: 404 });
    },
  },
];
