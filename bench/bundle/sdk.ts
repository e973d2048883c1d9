// A one-tool server with the official SDK v2 (createMcpHandler), as its docs write it.
import * as v from "valibot";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";

const inputSchema = toStandardJsonSchema(v.object({ a: v.number(), b: v.number() }));

export default createMcpHandler(() => {
  const server = new McpServer({ name: "bundle", version: "1.0.0" });
  server.registerTool("add", { description: "Adds two numbers", inputSchema }, ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
  }));
  return server;
});
