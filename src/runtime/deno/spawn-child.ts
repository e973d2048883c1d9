/**
 * A child process on Deno: `Deno.Command`, its stdio piped.
 *
 * @module
 */
import type { ChildProcess, SpawnOptions } from "../child-types.ts";

interface DenoCommand {
  spawn(): {
    pid: number;
    stdin: WritableStream<Uint8Array>;
    stdout: ReadableStream<Uint8Array>;
    stderr: ReadableStream<Uint8Array>;
    status: Promise<{ code: number; signal: string | null }>;
    kill(signal?: string): void;
  };
}

interface DenoLike {
  Command: new (command: string, options: Record<string, unknown>) => DenoCommand;
  env: { toObject(): Record<string, string> };
}

/**
 * Starts a child process with `Deno.Command`.
 *
 * @param options The command, arguments, environment and directory.
 * @returns The child, or `undefined` when this is not Deno.
 */
export function spawnChild(options: SpawnOptions): ChildProcess | undefined {
  const deno = (globalThis as { Deno?: DenoLike }).Deno;
  return deno === undefined ? undefined : spawnDeno(deno, options, [...(options.args ?? [])]);
}

function spawnDeno(deno: DenoLike, options: SpawnOptions, args: string[]): ChildProcess {
  const child = new deno.Command(options.command, {
    args,
    cwd: options.cwd,
    env: options.env,
    clearEnv: options.env !== undefined,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  let ended = false;
  const exited = child.status.then((status) => {
    ended = true;
    return { code: status.signal === null ? status.code : null, signal: status.signal };
  });
  return {
    pid: child.pid,
    write: (bytes) => writer.write(bytes),
    closeStdin: () => writer.close().catch(() => {}),
    stdout: child.stdout,
    stderr: child.stderr,
    exited,
    kill(signal) {
      if (ended) return;
      try {
        child.kill(signal);
      } catch { /* it ended meanwhile */ }
    },
  };
}
