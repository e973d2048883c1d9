/**
 * A real `redis-server` for tests: started on a free 127.0.0.1 port with no persistence, stopped by the
 * test. When the program is missing, `REDIS_MISSING` says how to install it (tests skip with it).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { missingOutsideCi } from "./once-per-run.ts";
import { freePort } from "./process.ts";
import type { ServerProcess } from "./server-process.ts";
import { createClient } from "redis";

/** The program (override with `REDIS_SERVER`). */
const PROGRAM = process.env.REDIS_SERVER ?? "redis-server";

/** Why Redis tests skip, or `false` when `redis-server` runs here. */
export const REDIS_MISSING: string | false = missingOutsideCi(
  spawnSync(PROGRAM, ["--version"]).status === 0
    ? false
    : `no ${PROGRAM} on PATH: install Debian's package (apt-get install redis-server) or set REDIS_SERVER`,
);

/** A running redis-server (`redis://127.0.0.1:<port>`); `stop()` sends SIGTERM, then SIGKILL after 2 s. */
export type RedisServer = ServerProcess;

/** Options of {@link startRedis}. */
export interface RedisServerOptions {
  /** The port (default a free one). */
  port?: number;
  /**
   * A directory for an append-only file fsynced on every write (`appendfsync always`), so a restart
   * (or a `kill -9`) on the same directory keeps every key, as a production Redis with AOF does.
   */
  persistIn?: string;
}

/**
 * Starts `redis-server` (on `port`, default a free one; no persistence unless `persistIn`) and waits (at
 * most 10 s) until it answers `PING`.
 */
export async function startRedis(portOrOptions?: number | RedisServerOptions): Promise<RedisServer> {
  const options = typeof portOrOptions === "number" ? { port: portOrOptions } : portOrOptions ?? {};
  const port = options.port ?? await freePort();
  const persistence = options.persistIn === undefined
    ? ["--appendonly", "no"]
    : ["--appendonly", "yes", "--appendfsync", "always", "--dir", options.persistIn];
  const child: ChildProcess = spawn(
    PROGRAM,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", ...persistence, "--protected-mode", "no"],
    { stdio: "ignore" },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `redis://127.0.0.1:${port}`;
  const stop = async () => {
    try {
      process.kill(child.pid!, "SIGCONT"); // a frozen server would not see the SIGTERM
    } catch { /* it has exited */ }
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 2_000);
    await exited;
    clearTimeout(timer);
  };
  const kill = async () => {
    child.kill("SIGKILL");
    await exited;
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = createClient({ url, socket: { reconnectStrategy: false } });
    probe.on("error", () => {});
    try {
      await probe.connect();
      await probe.ping();
      if (probe.isOpen) probe.destroy();
      return {
        url,
        port,
        stop,
        kill,
        // process.kill, not child.kill: Deno's ChildProcess sends no signal after its first (it counts as killed).
        pause: () => process.kill(child.pid!, "SIGSTOP"),
        resume: () => process.kill(child.pid!, "SIGCONT"),
      };
    } catch {
      if (probe.isOpen) probe.destroy();
      if (Date.now() > deadline || child.exitCode !== null) {
        await stop();
        throw new Error(`redis-server did not start on port ${port}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
