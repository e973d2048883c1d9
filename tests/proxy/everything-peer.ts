/**
 * `@modelcontextprotocol/server-everything` (the MCP reference server, on the official SDK 1.x) as a remote
 * for the proxy's tests: the command that runs it over stdio, or a child process serving it over HTTP on the port
 * the system gives it: Streamable HTTP at `/mcp` (a session per client, whose tasks are its own; a session it does
 * not know is answered 400, not 404), or the 2024-11-05 HTTP+SSE transport at `/sse`.
 */
import { ROOT } from "../helpers/process.ts";
import { RemoteProcess } from "./remote-process.ts";

const SCRIPT = `${ROOT}node_modules/@modelcontextprotocol/server-everything/dist/index.js`;

/** The stdio command of server-everything (its stderr kept from the test's output). */
export const everythingStdio = { command: "node", args: [SCRIPT, "stdio"], stderr: "pipe" as const };

/**
 * server-everything over HTTP in a child process (Node; it listens on every interface of its port, which
 * `report-listening.mjs` makes it print).
 *
 * @param transport `streamableHttp` (default, at `/mcp`) or `sse` (at `/sse`).
 * @returns The process, not started yet.
 */
export function everythingHttp(transport: "streamableHttp" | "sse" = "streamableHttp"): RemoteProcess {
  return new RemoteProcess((port) => ({
    command: "node",
    args: ["--import", `${ROOT}tests/proxy/report-listening.mjs`, SCRIPT, transport],
    env: { PORT: String(port) },
  }), transport === "sse" ? "/sse" : "/mcp");
}
