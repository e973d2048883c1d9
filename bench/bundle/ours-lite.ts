// The same one-tool server with this package, served on MCP-lite only (`bindings: [mcpLiteBinding()]`).
import * as v from "valibot";
import { createServer, defineTool, mcpLiteBinding } from "../../mod.ts";

const add = defineTool("add")
  .describe("Adds two numbers")
  .input(v.object({ a: v.number(), b: v.number() }))
  .handle(({ a, b }) => ({ sum: a + b }));

export default createServer({ name: "bundle", version: "1.0.0", bindings: [mcpLiteBinding()] }).tool(add);
