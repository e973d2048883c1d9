/**
 * A child process with piped stdin, stdout and stderr, on whichever runtime runs the client:
 * `Deno.Command` on Deno, `Bun.spawn` on Bun, `node:child_process` on Node (loaded only there).
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
 * Starts a child process.
 *
 * @param options The command, arguments, environment and directory.
 * @returns The child.
 * @throws {Error} When the program cannot be started (the runtime's error, e.g. not found).
 */
export async function spawnChild(options: SpawnOptions): Promise<ChildProcess> {
  const g = globalThis as { Deno?: DenoLike; Bun?: BunLike };
  const args = [...(options.args ?? [])];
  if (g.Deno !== undefined) return spawnDeno(g.Deno, options, args);
  if (g.Bun !== undefined) return spawnBun(g.Bun, options, args);
  return await spawnNode(options, args);
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

async function spawnNode(options: SpawnOptions, args: string[]): Promise<ChildProcess> {
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
