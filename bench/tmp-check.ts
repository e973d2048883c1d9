import * as v from "valibot";
import { createServer, defineTool, mcpBinding } from "../src/lite/mod.ts";
const add = defineTool("add").describe("Adds").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) => a + b);
const server = createServer({ name: "b", version: "1.0.0", bindings: [mcpBinding()] }).tool(add);
const h = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
for (const body of [
  { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } },
  { jsonrpc: "2.0", id: 2, method: "tasks/get", params: { taskId: "nope" } },
  { jsonrpc: "2.0", id: 3, method: "tasks/list", params: {} },
  { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 }, task: { ttl: 1000 } } },
]) {
  const r = await server.fetch(new Request("http://localhost/mcp", { method: "POST", headers: h, body: JSON.stringify(body) }));
  console.log(r.status, (await r.text()).slice(0, 300));
}
