/**
 * The official TypeScript SDK v2 (`@modelcontextprotocol/server` 2.4) over stdio, with the `add` tool.
 *
 * @module
 */
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { sdkServer } from "../sdk.ts";

await sdkServer().connect(new StdioServerTransport());
