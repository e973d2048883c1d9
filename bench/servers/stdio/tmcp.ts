/**
 * tmcp 1.20 + `@tmcp/adapter-valibot` + `@tmcp/transport-stdio` 0.5, with the `add` tool.
 *
 * @module
 */
import { McpServer } from "tmcp";
import { ValibotJsonSchemaAdapter } from "@tmcp/adapter-valibot";
import { StdioTransport } from "@tmcp/transport-stdio";
import { AddInput } from "../common.ts";

const server = new McpServer(
  { name: "bench", version: "1.0.0", description: "bench" },
  { adapter: new ValibotJsonSchemaAdapter(), capabilities: { tools: { listChanged: true } } },
);
server.tool({ name: "add", description: "Adds two numbers", schema: AddInput }, ({ a, b }) => {
  const structuredContent = { sum: a + b };
  return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent } as never;
});
new StdioTransport(server).listen();
