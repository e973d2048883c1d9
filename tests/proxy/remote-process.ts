/**
 * A remote server the proxy's tests run in a child process over HTTP (FastMCP, server-everything): started on port 0,
 * it says where it listens (`Listening on <url>` unless told otherwise), and a test can kill it and start it again at
 * the same URL.
 */
import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import { ROOT } from "../helpers/process.ts";

/** How to run the remote on a port (0: any the system gives it). */
export type Launch = (port: number) => { command: string; args: string[]; env?: Record<string, string> };

/** A remote in a child process, listening at {@link RemoteProcess.url} once started. */
export class RemoteProcess {
  readonly #launch: Launch;
  readonly #path: string;
  readonly #startMs: number;
  readonly #listening: RegExp;
  #child: ChildProcess | undefined;
  #port = 0;

  /**
   * @param launch Its program, arguments and extra environment, for a port.
   * @param path Its endpoint's path (e.g. `/mcp`).
   * @param options How long it may take to say where it listens after starting (default 60 s), and the line that
   *   says so, whose first group is the port (default `Listening on http://<host>:<port>`, as `serve()` prints).
   */
  constructor(launch: Launch, path: string, options: { startMs?: number; listening?: RegExp } = {}) {
    this.#launch = launch;
    this.#path = path;
    this.#startMs = options.startMs ?? 60_000;
    this.#listening = options.listening ?? /Listening on http:\/\/[\w.]+:(\d+)/i;
  }

  /** Its endpoint, the same after a restart; known once started. */
  get url(): string {
    if (this.#port === 0) throw new Error("the remote has not started");
    return `http://127.0.0.1:${this.#port}${this.#path}`;
  }

  /**
   * Starts it, and waits until it says where it listens: on port 0 the first time, then on the port it got then
   * (free from the kill until this restart: the test is about a remote back at its URL; Linux hands ports to
   * `connect()` from the even ones first and to a bind to port 0 from the odd ones, so an outgoing connection of
   * another process seldom takes it meanwhile). A process that exits before it listens is started once more (CI saw
   * server-everything's SSE server exit 0 at its start, once in hundreds); a second early exit fails, with the end
   * of its output.
   */
  async start(): Promise<void> {
    for (let attempt = 1;; attempt++) {
      try {
        return await this.#startOnce();
      } catch (error) {
        if (attempt >= 2 || !(error instanceof EarlyExit)) throw error;
      }
    }
  }

  async #startOnce(): Promise<void> {
    const { command, args, env } = this.#launch(this.#port);
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.#child = child;
    let output = "";
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`${command} did not listen in ${this.#startMs} ms; its output: ${output}`));
      }, this.#startMs);
      // Read on after it listened too, so that a chatty remote never fills its pipes.
      const read = (chunk: string) => {
        output = (output + chunk).slice(-4_000);
        const found = this.#listening.exec(output)?.[1];
        if (found === undefined) return;
        clearTimeout(timer);
        resolve(Number(found));
      };
      child.stdout!.setEncoding("utf8").on("data", read);
      child.stderr!.setEncoding("utf8").on("data", read);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new EarlyExit(`${command} ${args.join(" ")} exited with ${code}; its output: ${output}`));
      });
    });
    this.#port = port;
  }

  /** Kills it (SIGKILL) and waits until it exited. */
  async kill(): Promise<void> {
    const child = this.#child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    this.#child = undefined;
  }
}

/** The process exited before it listened. */
class EarlyExit extends Error {}
