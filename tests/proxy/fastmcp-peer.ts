/**
 * FastMCP (Python, `tests/proxy/python/peer.py`) as a remote for the proxy's tests: the command that
 * runs it over stdio, and a child process serving it over HTTP on the port the system gives it, which the test
 * can kill and start again. Without `.venv-py`, `missing` says why the tests skip.
 */
import { fastmcpMissing, PYTHON } from "../helpers/fastmcp.ts";
import { ROOT } from "../helpers/process.ts";
import { RemoteProcess } from "./remote-process.ts";

const SCRIPT = `${ROOT}tests/proxy/python/peer.py`;

/** Why the FastMCP tests skip, or `false` when FastMCP is installed. */
export const missing: string | false = fastmcpMissing("proxy FastMCP tests");

/** The stdio command of the FastMCP peer. */
export const fastmcpStdio = { command: PYTHON, args: [SCRIPT, "stdio"], stderr: "pipe" as const };

/** The FastMCP peer over HTTP (Streamable HTTP at `/mcp` on 127.0.0.1), in a child process. */
export class FastMcpHttp extends RemoteProcess {
  constructor() {
    // Python starts it in seconds on a quiet machine, in tens of them on a busy one (its first run compiles). Uvicorn
    // says where it listens once its application has started, with the port the system gave it.
    super((port) => ({ command: PYTHON, args: [SCRIPT, "http", String(port)] }), "/mcp", {
      startMs: 120_000,
      listening: /Uvicorn running on http:\/\/[\w.]+:(\d+)/,
    });
  }
}
