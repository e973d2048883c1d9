// The same one-tool server from `@mcplite/sdk/lite`, whose `createServer()` serves MCP-lite only.
import * as v from "valibot";
import { createServer, defineTool } from "../../src/lite/mod.ts";

const add = defineTool("add")
  .describe("Adds two numbers")
  .input(v.object({ a: v.number(), b: v.number() }))
  .handle(({ a, b }) => ({ sum: a + b }));

export default createServer({ name: "bundle", version: "1.0.0" }).tool(add);
