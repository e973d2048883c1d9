/**
 * FastMCP (Python, `tests/proxy/python/peer.py`) as a remote for the proxy's tests: the command that
 * runs it over stdio, and a child process serving it over HTTP on a port the test names, which the test
 * can kill and start again. Without `.venv-py`, `missing` says why the tests skip.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fastmcpMissing, PYTHON } from "../helpers/fastmcp.ts";
import { ROOT } from "../helpers/process.ts";
import { waitFor } from "./gateway.ts";

const SCRIPT = `${ROOT}tests/proxy/python/peer.py`;

/** Why the FastMCP tests skip, or `false` when FastMCP is installed. */
export const missing: string | false = fastmcpMissing("proxy FastMCP tests");

/** The stdio command of the FastMCP peer. */
export const fastmcpStdio = { command: PYTHON, args: [SCRIPT, "stdio"], stderr: "pipe" as const };

/** The FastMCP peer over HTTP (Streamable HTTP at `/mcp`), in a child process. */
export class FastMcpHttp {
  readonly port: number;
  #child: ChildProcess | undefined;

  /**
   * @param port The port it listens on (127.0.0.1), the same after a restart.
   */
  constructor(port: number) {
    this.port = port;
  }

  /** Its endpoint. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/mcp`;
  }

  /** Starts it, and waits until it answers. */
  async start(): Promise<void> {
    const child = spawn(PYTHON, [SCRIPT, "http", String(this.port)], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr!.resume();
    this.#child = child;
    await waitFor("FastMCP to listen", async () => {
      try {
        const response = await fetch(this.url, { method: "GET" });
        await response.body?.cancel();
        return true;
      } catch {
        return false;
      }
    }, 120_000);
  }

  /** Kills it (SIGKILL) and waits until it exited. */
  async kill(): Promise<void> {
    const child = this.#child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    this.#child = undefined;
  }
}
