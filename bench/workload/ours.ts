/**
 * Our server for the workload: the three tools on `createServer()` with its default bindings (MCP at
 * `/mcp`, MCP-lite beside it), served by `serve()` (`node:http` on Node, `Bun.serve` on Bun), its health
 * endpoint at the contract's `/health`. One process; `worker.ts` runs several.
 *
 * @module
 */
import { createServer, serve } from "../../mod.ts";
import { backendsFromEnv, workloadTools } from "./tools.ts";

/**
 * Listens on `port`.
 *
 * @param port The port (shared by every worker).
 * @param hostname The interface (`0.0.0.0` in a container).
 * @returns The listener.
 */
export function start(port: number, hostname = "127.0.0.1"): Promise<unknown> {
  const server = createServer({ name: "BenchmarkMcpliteServer", version: "1.0.0", health: { path: "/health" } });
  for (const tool of workloadTools(backendsFromEnv("mcplite"))) server.tool(tool);
  return serve(server, { port, hostname, quiet: true });
}
