/**
 * `@modelcontextprotocol/server-everything` (the MCP reference server, MCP 2025-11-25) as a remote for the proxy's
 * tests: the command that runs it over stdio, and a child process serving it over Streamable HTTP on a free port.
 */
import { spawn } from "node:child_process";
import process from "node:process";
import { freePort, ROOT } from "../helpers/process.ts";

const SCRIPT = `${ROOT}node_modules/@modelcontextprotocol/server-everything/dist/index.js`;

/** The stdio command of server-everything (its stderr kept from the test's output). */
export const everythingStdio = { command: "node", args: [SCRIPT, "stdio"], stderr: "pipe" as const };

/** server-everything over Streamable HTTP (with sessions), in a child process. */
export interface EverythingHttp {
  /** Its endpoint. */
  readonly url: string;
  /** Kills it and waits until it exited. */
  stop(): Promise<void>;
}

/**
 * Starts server-everything over Streamable HTTP on a free 127.0.0.1 port, and resolves once it listens.
 *
 * @returns The running server.
 */
export async function everythingHttp(): Promise<EverythingHttp> {
  const port = await freePort();
  const child = spawn("node", [SCRIPT, "streamableHttp"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  };
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`server-everything did not listen in 60 s: ${output}`));
    }, 60_000);
    child.stderr!.on("data", (chunk) => {
      output += String(chunk);
      if (!/listening on port/i.test(output)) return;
      clearTimeout(timer);
      resolve();
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited with ${code}: ${output}`));
    });
  });
  return { url: `http://127.0.0.1:${port}/mcp`, stop };
}
