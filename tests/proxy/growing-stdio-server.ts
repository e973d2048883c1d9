/**
 * A stdio server written with the official TypeScript SDK v1 (`@modelcontextprotocol/sdk`) whose lists
 * grow when asked: the tool `grow` registers a tool, a prompt and a resource, and the SDK sends each
 * list's `notifications/*\/list_changed`. Run as a child process by the proxy's tests.
 */
// deno-lint-ignore no-explicit-any
type Any = any;
const V1 = "@modelcontextprotocol/sdk"; // its `.js` subpaths, which Deno's checker does not resolve
const { McpServer } = await import(`${V1}/server/mcp.js`) as Any;
const { StdioServerTransport } = await import(`${V1}/server/stdio.js`) as Any;
const server: Any = new McpServer({ name: "growing", version: "1.0.0" });
const text = (value: string) => ({ content: [{ type: "text", text: value }] });
server.registerPrompt("first", { description: "The first prompt" }, () => ({
  messages: [{ role: "user", content: { type: "text", text: "first" } }],
}));
server.registerResource("first", "memo://first", { mimeType: "text/plain" }, (uri: URL) => ({
  contents: [{ uri: uri.href, text: "first" }],
}));
server.registerTool("grow", { description: "Adds a tool, a prompt and a resource" }, () => {
  server.registerTool("late", { description: "Registered later" }, () => text("late answer"));
  server.registerPrompt("late", { description: "Registered later" }, () => ({
    messages: [{ role: "user", content: { type: "text", text: "late" } }],
  }));
  server.registerResource("late", "memo://late", { mimeType: "text/plain" }, (uri: URL) => ({
    contents: [{ uri: uri.href, text: "late" }],
  }));
  return text("grown");
});
await server.connect(new StdioServerTransport());
