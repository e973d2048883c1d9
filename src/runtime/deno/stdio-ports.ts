/**
 * The Deno process's stdin, stdout and signals: `Deno.stdin`, `Deno.stdout`, `Deno.addSignalListener`.
 *
 * @module
 */
import { type ProcessPorts, STOP_SIGNALS } from "../process-ports.ts";

interface DenoLike {
  stdin: { readable: ReadableStream<Uint8Array> };
  stdout: { writable: WritableStream<Uint8Array> };
  addSignalListener(signal: string, handler: () => void): void;
  removeSignalListener(signal: string, handler: () => void): void;
  exit(code: number): never;
}

/**
 * The ports of the Deno process.
 *
 * @returns The ports, or `undefined` when this is not Deno.
 */
export function stdioPorts(): ProcessPorts | undefined {
  const deno = (globalThis as { Deno?: DenoLike }).Deno;
  return deno === undefined ? undefined : denoPorts(deno);
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
      const listeners = STOP_SIGNALS.map((signal) => {
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
