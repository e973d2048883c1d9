/**
 * A server run in a child process for tests: a program that prints `{"port":…}` once listening and
 * stops when its stdin closes (tests/websocket/node-server.ts, memory-server.ts).
 */
import { spawn } from "node:child_process";
import { ROOT } from "./process.ts";
export { node22, NODE22_MISSING } from "./node22.ts";

/** A running child server. */
export interface ChildServer {
  /** The port it listens on (127.0.0.1). */
  readonly port: number;
  /** Its process id (to read its resident set from outside, e.g. /proc/{pid}/status on Linux). */
  readonly pid: number;
  /** Closes its stdin and waits until it exited (killed after 3 s). */
  stop(): Promise<void>;
}

/**
 * Starts a child server from the repository root; rejects when it does not print its port in 20 s.
 *
 * @param command The program.
 * @param args Its arguments.
 * @returns The running server.
 */
export async function childServer(command: string, args: string[]): Promise<ChildServer> {
  const child = spawn(command, args, { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the server did not start in 20 s")), 20_000);
    child.stdout!.once("data", (chunk) => {
      clearTimeout(timer);
      resolve(JSON.parse(String(chunk)).port);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}`));
    });
  });
  return {
    port,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        const timer = setTimeout(() => child.kill(), 3000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.stdin!.end(); // the server closes and exits
      }),
  };
}
