/**
 * The official TypeScript SDK v2 (`@modelcontextprotocol/server` 2.4) over stdio, with the `add` tool.
 *
 * @module
 */
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { McpServer } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { AddInput } from "../common.ts";

// deno-lint-ignore no-explicit-any
const server: any = new McpServer({ name: "bench", version: "1.0.0" });
server.registerTool(
  "add",
  // deno-lint-ignore no-explicit-any
  { description: "Adds two numbers", inputSchema: toStandardJsonSchema(AddInput as any) },
  ({ a, b }: { a: number; b: number }) => {
    const structuredContent = { sum: a + b };
    return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
  },
);
await server.connect(new StdioServerTransport());
