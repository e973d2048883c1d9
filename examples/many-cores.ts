/**
 * One server on every core: run this script once per core, every process on the same port with
 * `serve(server, { reusePort: true })` (`SO_REUSEPORT`, Linux), and the kernel spreads the connections
 * among them. Each process is a whole server: nothing to share for MCP-lite and MCP 2026; state kept in
 * memory (a 2025 session, a deferred job's result) stays with the process a connection reached.
 *
 *   for i in $(seq "$(nproc)"); do PORT=8000 bun run examples/many-cores.ts & done; wait
 *   for i in $(seq "$(nproc)"); do PORT=8000 deno run -A --unstable-net examples/many-cores.ts & done; wait
 *   for i in $(seq "$(nproc)"); do PORT=8000 node examples/many-cores.ts & done; wait    # Node 22.12+
 *
 * Reads PORT (default 8000) and HOSTNAME (default 127.0.0.1) from the environment; `whoami` answers with
 * the id of the process that served the call.
 */
import process from "node:process";
import { createServer, defineTool, serve } from "../mod.ts";

const server = createServer({ name: "many-cores", version: "1.0.0", health: { path: "/health" } })
  .tool(defineTool("whoami").describe("Says which process answered").handle(() => `process ${process.pid}`));

await serve(server, { reusePort: true }); // stderr: Listening on http://127.0.0.1:8000
