/**
 * A stdio server written with the official TypeScript SDK v2 (`@modelcontextprotocol/server` 2.4), for
 * tests of our stdio client against a server nobody here wrote. Run as a child process.
 */
import * as v from "valibot";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { McpServer } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

// deno-lint-ignore no-explicit-any
type Any = any;
const schema = (s: v.GenericSchema): Any => toStandardJsonSchema(s as Any);

const server: Any = new McpServer({ name: "official", version: "2.4.0" });
server.registerTool(
  "multiply",
  { description: "Multiplies two numbers", inputSchema: schema(v.object({ a: v.number(), b: v.number() })) },
  ({ a, b }: { a: number; b: number }) => ({ content: [{ type: "text", text: String(a * b) }] }),
);
await server.connect(new StdioServerTransport());
