// A one-tool server with tmcp, its valibot adapter and its HTTP transport, as its README writes it.
import * as v from "valibot";
import { McpServer } from "tmcp";
import { ValibotJsonSchemaAdapter } from "@tmcp/adapter-valibot";
import { HttpTransport } from "@tmcp/transport-http";

const server = new McpServer(
  { name: "bundle", version: "1.0.0", description: "bundle" },
  { adapter: new ValibotJsonSchemaAdapter(), capabilities: { tools: {} } },
);
server.tool(
  { name: "add", description: "Adds two numbers", schema: v.object({ a: v.number(), b: v.number() }) },
  ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
);
const transport = new HttpTransport(server, { path: "/mcp" });

export default {
  fetch: async (request: Request) => (await transport.respond(request)) ?? new Response(null, { status: 404 }),
};
