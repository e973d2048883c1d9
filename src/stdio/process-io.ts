/**
 * The process's own stdin, stdout and signals on Deno, Bun and Node, without importing `node:*`
 * (the core stays on web standards): Deno's `Deno.stdin`/`Deno.stdout`, elsewhere the `process`
 * global that Bun and Node share.
 *
 * @module
 */
import type { WriteBytes } from "./line-writer.ts";

/** The process's standard streams and lifecycle, as {@link serveStdio} uses them. */
export interface ProcessPorts {
  /** Bytes from stdin. */
  readonly input: AsyncIterable<Uint8Array>;
  /** Writes bytes to stdout. */
  readonly write: WriteBytes;
  /**
   * Calls `handler` on SIGINT or SIGTERM.
   *
   * @returns A function that removes the listeners.
   */
  onSignal(handler: (signal: string) => void): () => void;
  /** Calls `handler` when stdout fails (EPIPE); the error is handled, not thrown. */
  onOutputError(handler: (error: unknown) => void): void;
  /** Ends the process. */
  exit(code: number): void;
}

interface DenoLike {
  stdin: { readable: ReadableStream<Uint8Array> };
  stdout: { writable: WritableStream<Uint8Array> };
  addSignalListener(signal: string, handler: () => void): void;
  removeSignalListener(signal: string, handler: () => void): void;
  exit(code: number): never;
}

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

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/**
 * The current process's stdin, stdout and signals.
 *
 * @returns The ports.
 * @throws {TypeError} On a runtime with neither `Deno` nor `process` (a browser, a Worker).
 */
export function processPorts(): ProcessPorts {
  const g = globalThis as { Deno?: DenoLike; process?: ProcessLike };
  if (g.Deno !== undefined) return denoPorts(g.Deno);
  if (g.process?.stdin !== undefined) return nodePorts(g.process);
  throw new TypeError("serveStdio needs a process with stdin and stdout (Deno, Bun or Node)");
}

function denoPorts(deno: DenoLike): ProcessPorts {
  let writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  let onError: (error: unknown) => void = () => {};
  return {
    input: deno.stdin.readable,
    write(bytes) {
      writer ??= deno.stdout.writable.getWriter();
      return writer.write(bytes).catch((error) => {
        onError(error);
        throw error;
      });
    },
    onSignal(handler) {
      const listeners = SIGNALS.map((signal) => {
        const listener = () => handler(signal);
        try {
          deno.addSignalListener(signal, listener);
        } catch { /* SIGTERM cannot be listened to on Windows */ }
        return [signal, listener] as const;
      });
      return () => {
        for (const [signal, listener] of listeners) {
          try {
            deno.removeSignalListener(signal, listener);
          } catch { /* never added */ }
        }
      };
    },
    onOutputError(handler) {
      onError = handler;
    },
    exit: (code) => deno.exit(code),
  };
}

function nodePorts(process: ProcessLike): ProcessPorts {
  return {
    input: process.stdin,
    write: (bytes) =>
      new Promise<void>((done, fail) => {
        process.stdout.write(bytes, (error) => error ? fail(error) : done());
      }),
    onSignal(handler) {
      const listeners = SIGNALS.map((signal) => [signal, () => handler(signal)] as const);
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
