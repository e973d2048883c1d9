/**
 * The process's stdin, stdout and signals through the `process` global that Node and Bun share,
 * without importing `node:process`.
 *
 * @module
 */
import { type ProcessPorts, STOP_SIGNALS } from "../process-ports.ts";

interface NodeStream {
  write(chunk: Uint8Array, callback: (error?: Error | null) => void): boolean;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

interface ProcessLike {
  stdin: AsyncIterable<Uint8Array>;
  stdout: NodeStream;
  on(event: string, listener: () => void): unknown;
  off(event: string, listener: () => void): unknown;
  exit(code: number): never;
}

/**
 * The ports of the process, through the `process` global (Node, Bun).
 *
 * @returns The ports, or `undefined` where there is no `process` with a stdin.
 */
export function stdioPorts(): ProcessPorts | undefined {
  const process = (globalThis as { process?: ProcessLike }).process;
  return process?.stdin === undefined ? undefined : nodePorts(process);
}

function nodePorts(process: ProcessLike): ProcessPorts {
  return {
    input: process.stdin,
    write: (bytes) =>
      new Promise<void>((done, fail) => {
        process.stdout.write(bytes, (error) => error ? fail(error) : done());
      }),
    onSignal(handler) {
      const listeners = STOP_SIGNALS.map((signal) => [signal, () => handler(signal)] as const);
      for (const [signal, listener] of listeners) process.on(signal, listener);
      return () => {
        for (const [signal, listener] of listeners) process.off(signal, listener);
      };
    },
    onOutputError(handler) {
      // Without a listener, EPIPE on stdout is an uncaught exception with a stack trace.
      process.stdout.on("error", handler);
    },
    exit: (code) => process.exit(code),
  };
}
