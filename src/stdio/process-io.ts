/**
 * The process's own stdin, stdout and signals, from the runtime's folder (`src/runtime/deno/` for Deno,
 * `src/runtime/node/` for the `process` global Bun and Node share), without importing `node:*`.
 *
 * @module
 */
import { stdioPorts as denoStdio } from "../runtime/deno/stdio-ports.ts";
import { stdioPorts as nodeStdio } from "../runtime/node/stdio-ports.ts";
import type { ProcessPorts } from "../runtime/process-ports.ts";

export type { ProcessPorts };

/**
 * The current process's stdin, stdout and signals.
 *
 * @returns The ports.
 * @throws {TypeError} On a runtime with neither `Deno` nor `process` (a browser, a Worker).
 */
export function processPorts(): ProcessPorts {
  const ports = denoStdio() ?? nodeStdio();
  if (ports === undefined) throw new TypeError("serveStdio needs a process with stdin and stdout (Deno, Bun or Node)");
  return ports;
}

/**
 * Sends `console.log`, `console.info` and `console.debug` to stderr, so that stdout carries only
 * protocol (MCP 2025-11-25, Transports: stdio: "The server MUST NOT write anything to its stdout that
 * is not a valid MCP message").
 *
 * @returns A function that restores them.
 */
export function consoleToStderr(): () => void {
  const { log, info, debug } = console;
  const toStderr = console.error.bind(console);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  return () => {
    console.log = log;
    console.info = info;
    console.debug = debug;
  };
}
