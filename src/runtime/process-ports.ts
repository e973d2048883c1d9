/**
 * What `serveStdio()` asks of the process it serves, on every runtime: stdin, stdout, signals and exit.
 * Each runtime's are in `src/runtime/<runtime>/stdio-ports.ts`.
 *
 * @module
 */

/** The process's standard streams and lifecycle, as `serveStdio()` uses them. */
export interface ProcessPorts {
  /** Bytes from stdin. */
  readonly input: AsyncIterable<Uint8Array>;
  /** Writes bytes to stdout. */
  readonly write: (bytes: Uint8Array) => Promise<void>;
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

/** The signals that stop a stdio server. */
export const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;
