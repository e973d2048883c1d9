/**
 * Serving over stdio: `serveStdio(server)` makes a server a local process that desktop hosts and
 * editors launch (MCP 2025-11-25, Transports: stdio), speaking MCP (2025 and 2026-07-28) and MCP-lite
 * on stdin and stdout.
 *
 * @example
 * ```ts ignore
 * import { createServer, defineTool } from "@mcplite/sdk";
 * import { serveStdio } from "@mcplite/sdk/stdio";
 *
 * const server = createServer({ name: "notes", version: "1.0.0" })
 *   .tool(defineTool("ping").handle(() => "pong"));
 * serveStdio(server); // host config: {"command": "deno", "args": ["run", "-A", "server.ts"]}
 * ```
 *
 * @module
 */
export { serveStdio } from "./serve-stdio.ts";
export type { StdioOptions, StdioServable, StdioServer } from "./serve-stdio.ts";
