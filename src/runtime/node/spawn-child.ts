/**
 * A child process on Node: `node:child_process`, its stdio piped.
 *
 * @module
 */
import type { ChildExit, ChildProcess, SpawnOptions } from "../child-types.ts";

interface NodeChild {
  pid?: number;
  stdin: {
    write(bytes: Uint8Array, callback: (error?: Error | null) => void): boolean;
    end(callback?: () => void): void;
    on(e: string, f: (...a: unknown[]) => void): void;
  };
  stdout: AsyncIterable<Uint8Array>;
  stderr: AsyncIterable<Uint8Array>;
  once(event: string, listener: (...args: unknown[]) => void): void;
  kill(signal?: string): boolean;
  exitCode: number | null;
  signalCode: string | null;
}

/**
 * Starts a child process with `node:child_process`, loaded when called (Deno and Bun never load it).
 *
 * @param options The command, arguments, environment and directory.
 * @returns The child, once it started.
 * @throws {Error} When the program cannot be started.
 */
export async function spawnChild(options: SpawnOptions): Promise<ChildProcess> {
  const args = [...(options.args ?? [])];
  // Only Node gets here: a dynamic import is loaded when it runs, so Deno and Bun never load it; the
  // literal specifier lets JSR analyse it.
  const { spawn } = await import("node:child_process") as unknown as {
    spawn(command: string, args: string[], options: Record<string, unknown>): NodeChild;
  };
  const child = spawn(options.command, args, { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
  child.stdin.on("error", () => {}); // EPIPE after the child exited: writes reject instead
  const exited = new Promise<ChildExit>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code: code as number | null, signal: signal as string | null }));
    child.once("error", () => resolve({ code: null, signal: null }));
  });
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", () => resolve());
    child.once("error", (error) => reject(error));
  });
  return {
    pid: child.pid,
    write: (bytes) =>
      new Promise((resolve, reject) => child.stdin.write(bytes, (error) => error ? reject(error) : resolve())),
    closeStdin: () => new Promise((resolve) => child.stdin.end(() => resolve())),
    stdout: child.stdout,
    stderr: child.stderr,
    exited,
    kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}
