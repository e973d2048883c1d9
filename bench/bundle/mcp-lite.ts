// A one-tool server with mcp-lite (stateless StreamableHttpTransport), as its README writes it.
import * as v from "valibot";
import { toJsonSchema } from "@valibot/to-json-schema";
import { McpServer, StreamableHttpTransport } from "mcp-lite";

const mcp = new McpServer({
  name: "bundle",
  version: "1.0.0",
  schemaAdapter: (schema) => toJsonSchema(schema as v.GenericSchema) as Record<string, unknown>,
});
mcp.tool("add", {
  description: "Adds two numbers",
  inputSchema: v.object({ a: v.number(), b: v.number() }),
  handler: ({ a, b }: { a: number; b: number }) => ({ content: [{ type: "text", text: String(a + b) }] }),
});

export default { fetch: new StreamableHttpTransport({ allowedHosts: ["localhost"] }).bind(mcp) };
