/**
 * Child processes for tests: programs run from the repository root, each killed after a time bound.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import process from "node:process";
import { changes, LOADED_MS } from "./wait.ts";

/** The output of a child process. */
export interface Run {
  /** The exit code (null when killed). */
  code: number | null;
  /** What it printed. */
  stdout: string;
  /** What it printed on stderr. */
  stderr: string;
}

/** The repository root. */
export const ROOT: string = new URL("../../", import.meta.url).pathname;

/** Runs a program from `cwd` (default: the repository root), killed after `timeoutMs`; `env` replaces the environment. */
export function run(
  file: string,
  args: string[],
  timeoutMs = 30_000,
  cwd: string = ROOT,
  env?: Record<string, string | undefined>,
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env, timeout: timeoutMs, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/**
 * The URL a server child prints on stderr as `Listening on <url>` (what `serve()` says), within `timeoutMs`;
 * rejects, with its stderr, when it exits first.
 */
export async function listening(child: ChildProcess, timeoutMs = 30_000): Promise<string> {
  try {
    return (await output(child, ["stderr"]).until(/Listening on (http:\/\/\S+)\s/, timeoutMs))[1];
  } catch (error) {
    throw new Error(`the server did not listen: ${(error as Error).message}`);
  }
}

/** What a child process prints, read as it comes (see {@link output}). */
export interface Output {
  /** What it printed so far. */
  text(): string;
  /**
   * The first match of `pattern` (no `g` flag) in what it printed (after its first `from` characters), once printed;
   * rejects, with what it printed, when the child ends first or after `timeoutMs` (a bound for a loaded machine, not
   * a measure).
   */
  until(pattern: RegExp, timeoutMs?: number, from?: number): Promise<RegExpExecArray>;
}

/**
 * Reads what `child` prints on `streams` (both by default, as one text in the order it came), from now on: the lines
 * a test waits for are events (a server's address, a worker's readiness, a delivery), not a time that passed.
 */
export function output(
  child: ChildProcess,
  streams: readonly ("stdout" | "stderr")[] = ["stdout", "stderr"],
): Output {
  let text = "";
  let ended = false;
  const printed = changes();
  for (const name of streams) {
    child[name]!.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      printed.changed();
    });
  }
  // "close": its streams have ended too, so that nothing it printed is still to be read.
  child.once("close", () => {
    ended = true;
    printed.changed();
  });
  return {
    text: () => text,
    until: async (pattern, timeoutMs = LOADED_MS, from = 0) => {
      const found = () => pattern.exec(text.slice(from));
      await printed.until(
        () => ended || found() !== null,
        () => `${pattern} not printed; it printed:\n${text}`,
        timeoutMs,
      );
      const match = found();
      if (match !== null) return match;
      throw new Error(
        `it ended (${child.exitCode ?? child.signalCode}) before printing ${pattern}; it printed:\n${text}`,
      );
    },
  };
}

/**
 * Starts a server that must be told its port and cannot bind port 0 and say which port it got (redis-server,
 * PostgreSQL, Prism), on a port no other process can take between a probe and its bind, since there is no probe: a
 * random port below Linux's ephemeral range (ip(7), ip_local_port_range: 32768 and up, where an outgoing connection's
 * source port could take it; CI run L), bound by the server itself; another one while `start` fails saying the port is
 * in use (its message matching `inUse`), at most `tries` times.
 *
 * @param start Starts the server on `port`; rejects when it could not (its message says why).
 * @param tries How many ports to try.
 * @returns What `start` resolved.
 */
export async function onUnusedPort<T>(start: (port: number) => Promise<T>, tries = 10): Promise<T> {
  for (let attempt = 1;; attempt++) {
    try {
      return await start(20_000 + Math.floor(Math.random() * 12_768));
    } catch (error) {
      if (attempt >= tries || !IN_USE.test(String((error as Error).message))) throw error;
    }
  }
}

/** How redis-server, PostgreSQL and Node's servers (Prism) say that the port they were given is taken. */
const IN_USE = /address already in use|EADDRINUSE/i;

/** A server a test started in a child process: its origin, and how to stop it. */
export interface StartedServer {
  /** Where it listens, e.g. `http://127.0.0.1:41234`. */
  readonly origin: string;
  /** Its process id. */
  readonly pid: number;
  /** What it has printed so far, on stdout and stderr. */
  readonly output: string;
  /** Waits for a line it prints (see {@link Output.until}). */
  readonly until: Output["until"];
  /** Kills it and waits until it exited. */
  stop(): Promise<void>;
}

/**
 * Starts a server program on a free port (`PORT=0`, `HOSTNAME=127.0.0.1`, unless `env` says otherwise) and resolves
 * once it says where it listens (`Listening on <url>`, on stdout or stderr, as `serve()` and the examples print);
 * rejects after 60 s, or with its output when it exits first.
 */
export async function startServer(
  command: string,
  args: string[],
  cwd: string = ROOT,
  env: Record<string, string> = {},
): Promise<StartedServer> {
  const name = args.at(-1) ?? command;
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, PORT: "0", HOSTNAME: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill();
    await exited;
  };
  const printed = output(child);
  let url: string;
  try {
    url = (await printed.until(/listening on (http:\/\/[\w.:]+)\s/i, 60_000))[1];
  } catch (error) {
    await stop();
    throw new Error(`${name} did not listen: ${(error as Error).message}`);
  }
  return {
    origin: new URL(url).origin,
    pid: child.pid!,
    get output() {
      return printed.text();
    },
    until: printed.until,
    stop,
  };
}
