/**
 * A child process on Bun: `Bun.spawn`, its stdio piped.
 *
 * @module
 */
import type { ChildProcess, SpawnOptions } from "../child-types.ts";

interface BunSubprocess {
  pid: number;
  stdin: { write(bytes: Uint8Array): number; flush(): unknown; end(): unknown };
  stdout: ReadableStream<Uint8Array>;
  stderr: ReadableStream<Uint8Array>;
  exited: Promise<number>;
  signalCode: string | null;
  kill(signal?: string): void;
}

interface BunLike {
  spawn(cmd: string[], options: Record<string, unknown>): BunSubprocess;
}

/**
 * Starts a child process with `Bun.spawn`.
 *
 * @param options The command, arguments, environment and directory.
 * @returns The child, or `undefined` when this is not Bun.
 */
export function spawnChild(options: SpawnOptions): ChildProcess | undefined {
  const bun = (globalThis as { Bun?: BunLike }).Bun;
  return bun === undefined ? undefined : spawnBun(bun, options, [...(options.args ?? [])]);
}

function spawnBun(bun: BunLike, options: SpawnOptions, args: string[]): ChildProcess {
  const child = bun.spawn([options.command, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  let ended = false;
  let closed = false;
  const exited = child.exited.then((code) => {
    ended = true;
    return child.signalCode !== null ? { code: null, signal: child.signalCode } : { code, signal: null };
  });
  return {
    pid: child.pid,
    write(bytes) {
      if (closed || ended) return Promise.reject(new Error("stdin is closed"));
      child.stdin.write(bytes);
      return Promise.resolve(child.stdin.flush()).then(() => {});
    },
    async closeStdin() {
      if (closed) return;
      closed = true;
      try {
        await child.stdin.end();
      } catch { /* already gone */ }
    },
    stdout: child.stdout,
    stderr: child.stderr,
    exited,
    kill(signal) {
      if (!ended) child.kill(signal);
    },
  };
}
