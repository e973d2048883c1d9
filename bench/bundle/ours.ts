// A one-tool server with this package, served on every HTTP wire (MCP-lite and MCP), as a user writes it.
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";

const add = defineTool("add")
  .describe("Adds two numbers")
  .input(v.object({ a: v.number(), b: v.number() }))
  .handle(({ a, b }) => ({ sum: a + b }));

export default createServer({ name: "bundle", version: "1.0.0" }).tool(add);
