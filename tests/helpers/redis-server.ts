/**
 * A real `redis-server` for tests: started on an unused 127.0.0.1 port with no persistence, stopped by the
 * test, and ending with the test process however that ends (tests/helpers/watched-process.ts). When the program
 * is missing, `REDIS_MISSING` says how to install it (tests skip with it).
 */
import { spawnSync } from "node:child_process";
import { missingOutsideCi } from "./once-per-run.ts";
import { onUnusedPort } from "./process.ts";
import type { ServerProcess } from "./server-process.ts";
import { readUntil } from "./wait.ts";
import { startWatched } from "./watched-process.ts";
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
 * Starts `redis-server` (on `port`, default an unused one: onUnusedPort(); no persistence unless `persistIn`) and
 * waits (at most 60 s, a bound for a loaded machine) until it says it is ready and answers `PING`.
 */
export function startRedis(portOrOptions?: number | RedisServerOptions): Promise<RedisServer> {
  const options = typeof portOrOptions === "number" ? { port: portOrOptions } : portOrOptions ?? {};
  return options.port === undefined ? onUnusedPort((port) => startOn(port, options)) : startOn(options.port, options);
}

/** {@link startRedis} on `port`: rejects, its log saying why, when it could not start there. */
async function startOn(port: number, options: RedisServerOptions): Promise<RedisServer> {
  const persistence = options.persistIn === undefined
    ? ["--appendonly", "no"]
    : ["--appendonly", "yes", "--appendfsync", "always", "--dir", options.persistIn];
  const server = await startWatched(
    PROGRAM,
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      ...persistence,
      "--protected-mode",
      "no",
    ],
    // Its log (on stdout) kept: its readiness ("Ready to accept connections") and a port in use.
    { logOnStdout: true },
  );
  let ended = false; // once it has, its pid may be another process's
  const exited = server.exited.then(() => void (ended = true));
  const signal = (name: NodeJS.Signals) => {
    if (ended) return;
    try {
      process.kill(server.pid, name);
    } catch { /* it has exited */ }
  };
  const url = `redis://127.0.0.1:${port}`;
  const stop = async () => {
    signal("SIGCONT"); // a frozen server would not see the SIGTERM
    signal("SIGTERM");
    const timer = setTimeout(() => signal("SIGKILL"), 2_000);
    await exited;
    clearTimeout(timer);
  };
  const kill = async () => {
    signal("SIGKILL");
    await exited;
  };
  // Its readiness: its log says so (so a PING is not answered by another process on the port), then a PING answered
  // (a bound of 60 s, for a loaded machine).
  const ready = async () => {
    if (server.child.exitCode !== null) throw new Error(`it exited with ${server.child.exitCode}: ${server.stderr()}`);
    if (!server.stderr().includes("Ready to accept connections")) return false;
    const probe = createClient({ url, socket: { reconnectStrategy: false } });
    probe.on("error", () => {});
    try {
      await probe.connect();
      await probe.ping();
      return true;
    } catch {
      return false;
    } finally {
      if (probe.isOpen) probe.destroy();
    }
  };
  try {
    await readUntil(ready, (answered) => answered, `redis-server's answer to PING on port ${port}`, { everyMs: 50 });
  } catch (error) {
    await stop();
    throw new Error(`redis-server did not start on port ${port}: ${(error as Error).message}`);
  }
  return { url, port, stop, kill, pause: () => signal("SIGSTOP"), resume: () => signal("SIGCONT") };
}
