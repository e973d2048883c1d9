/**
 * A child process with piped stdin, stdout and stderr, as the stdio client transport uses it; each
 * runtime starts one in `src/runtime/<runtime>/spawn-child.ts`.
 *
 * @module
 */

/** How to start the child. */
export interface SpawnOptions {
  /** The program. */
  readonly command: string;
  /** Its arguments. */
  readonly args?: readonly string[];
  /** Its environment (default: the parent's). */
  readonly env?: Readonly<Record<string, string>>;
  /** Its working directory. */
  readonly cwd?: string;
}

/** How a child ended. */
export interface ChildExit {
  /** The exit code, when it exited. */
  readonly code: number | null;
  /** The signal that ended it, when one did. */
  readonly signal: string | null;
}

/** A running child. */
export interface ChildProcess {
  /** Its process id. */
  readonly pid: number | undefined;
  /** Writes to its stdin; rejects once stdin is closed or broken. */
  write(bytes: Uint8Array): Promise<void>;
  /** Closes its stdin (EOF). */
  closeStdin(): Promise<void>;
  /** Its stdout. */
  readonly stdout: AsyncIterable<Uint8Array>;
  /** Its stderr. */
  readonly stderr: AsyncIterable<Uint8Array>;
  /** Settles when it ended. */
  readonly exited: Promise<ChildExit>;
  /** Sends it a signal (ignored once it ended). */
  kill(signal: "SIGTERM" | "SIGKILL"): void;
}
