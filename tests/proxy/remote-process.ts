/**
 * A remote server the proxy's tests run in a child process over HTTP, on a port the test names, so that the
 * test can kill it and start it again at the same URL (FastMCP, server-everything).
 */
import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import { ROOT } from "../helpers/process.ts";
import { waitFor } from "./gateway.ts";

/** A remote in a child process, listening at {@link RemoteProcess.url} once started. */
export class RemoteProcess {
  readonly #command: string;
  readonly #args: string[];
  readonly #env: Record<string, string>;
  readonly #startMs: number;
  #child: ChildProcess | undefined;
  /** Its endpoint. */
  readonly url: string;

  /**
   * @param url Its endpoint (the same after a restart).
   * @param command The program.
   * @param args Its arguments.
   * @param options Its extra environment, and how long it may take to answer after starting (default 60 s).
   */
  constructor(
    url: string,
    command: string,
    args: string[],
    options: { env?: Record<string, string>; startMs?: number } = {},
  ) {
    this.url = url;
    this.#command = command;
    this.#args = args;
    this.#env = options.env ?? {};
    this.#startMs = options.startMs ?? 60_000;
  }

  /**
   * Starts it, and waits until its endpoint answers anything over HTTP. A process that exits before it listens is
   * started once more (CI saw server-everything's SSE server exit 0 at its start, once in hundreds); a second early
   * exit fails, with the end of what it wrote to stderr.
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
    const child = spawn(this.#command, this.#args, {
      cwd: ROOT,
      env: { ...process.env, ...this.#env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => stderr = (stderr + chunk).slice(-2_000));
    this.#child = child;
    let exited: number | null | undefined;
    child.once("exit", (code) => exited = code);
    await waitFor(`${this.#command} to listen`, async () => {
      if (exited !== undefined) {
        throw new EarlyExit(`${this.#command} ${this.#args.join(" ")} exited with ${exited}; its stderr: ${stderr}`);
      }
      try {
        const response = await fetch(this.url, { method: "GET", signal: AbortSignal.timeout(2_000) });
        await response.body?.cancel();
        return true;
      } catch {
        return false;
      }
    }, this.#startMs);
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
