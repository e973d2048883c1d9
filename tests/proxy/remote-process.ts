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

  /** Starts it, and waits until its endpoint answers anything over HTTP. */
  async start(): Promise<void> {
    const child = spawn(this.#command, this.#args, {
      cwd: ROOT,
      env: { ...process.env, ...this.#env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr!.resume();
    this.#child = child;
    let exited: number | null | undefined;
    child.once("exit", (code) => exited = code);
    await waitFor(`${this.#command} to listen`, async () => {
      if (exited !== undefined) throw new Error(`${this.#command} ${this.#args.join(" ")} exited with ${exited}`);
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
