/**
 * A real PostgreSQL for tests: a cluster made by `initdb` (under `npm test`, once per test process, then copied)
 * in a temporary folder, started by the test on a free 127.0.0.1 port (trust authentication, no fsync: nothing here
 * outlives the test), stopped or killed by it, and started again on the same folder. It ends with the test process, however that ends, its folder removed
 * (tests/helpers/watched-process.ts). PostgreSQL refuses to run as root: as root, the programs run as the `postgres`
 * user through `setpriv`, which runs them in its own process (the postmaster is the pid the test signals; `runuser`
 * would stay between as its parent, and a signal to it is not the postmaster's). When the programs are missing,
 * `POSTGRES_MISSING` says how to install them.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import pg from "pg";
import { missingOutsideCi } from "./once-per-run.ts";
import { onUnusedPort } from "./process.ts";
import type { ServerProcess } from "./server-process.ts";
import { readUntil, waitFor } from "./wait.ts";
import { startWatched, type WatchedProcess } from "./watched-process.ts";

/** The folder of `initdb` and `postgres`: `POSTGRES_BIN`, else Debian's newest, else the PATH's. */
function binFolder(): string | undefined {
  if (process.env.POSTGRES_BIN) return process.env.POSTGRES_BIN;
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const newest = readdirSync(debian).sort((a, b) => Number(b) - Number(a))[0];
    if (newest !== undefined && existsSync(join(debian, newest, "bin", "initdb"))) return join(debian, newest, "bin");
  }
  return undefined;
}

const BIN = binFolder();
const program = (name: string) => BIN === undefined ? name : join(BIN, name);
const AS_ROOT = process.getuid?.() === 0;

/** Why Postgres tests skip, or `false` when `initdb` and `postgres` run here. */
export const POSTGRES_MISSING: string | false = missingOutsideCi(
  spawnSync(program("postgres"), ["--version"]).status === 0 && spawnSync(program("initdb"), ["--version"]).status === 0
    ? (AS_ROOT && spawnSync("id", ["postgres"]).status !== 0 ? "no postgres user to run PostgreSQL as" : false)
    : "no initdb and postgres: install Debian's package (apt-get install postgresql) or set POSTGRES_BIN",
);

/**
 * A running PostgreSQL (`postgres://postgres@127.0.0.1:<port>/postgres`): `stop()` is a fast shutdown (SIGINT);
 * `kill()`, `pause()` and `resume()` signal the postmaster and every backend under it.
 */
export interface PostgresServer extends ServerProcess {
  /** Starts it again on the same cluster and port (after a stop or a kill). */
  restart(): Promise<void>;
  /** Stops it and removes its cluster. */
  remove(): Promise<void>;
}

/**
 * `pid` and every process under it: PostgreSQL's backends each run in a session of their own (setsid), so a
 * process group does not reach them; a service manager's kill (a cgroup) does, and so does this.
 */
function processTree(pid: number): number[] {
  const table = spawnSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" }).stdout.trim().split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number));
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of table) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}

/** Sends `name` to every process of the tree under `pid` (those that exited meanwhile are passed over). */
function signalTree(pid: number, name: NodeJS.Signals): void {
  for (const each of processTree(pid)) {
    try {
      process.kill(each, name);
    } catch { /* it has exited */ }
  }
}

/** Whether a process is still there (a zombie counts: PostgreSQL's lock file check would count it too). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs a program as the `postgres` user when this process is root (in the same process: `setpriv` execs it). */
function asPostgres(command: string, args: string[]): [string, string[]] {
  return AS_ROOT
    ? ["setpriv", ["--reuid=postgres", "--regid=postgres", "--init-groups", "--", command, ...args]]
    : [command, args];
}

/**
 * A new folder for a cluster and its socket, the `postgres` user's as root; the cluster's path in it. Under `npm test`
 * in the run's scratch directory, which the run removes at its end: a test that stops its server rather than removing
 * it, a worker killed or an `after` Deno never runs would leave it in the temporary directory otherwise.
 */
function clusterPath(): string {
  const base = mkdtempSync(join(process.env.MCPLITE_SCRATCH_DIR ?? tmpdir(), "mcplite-pg-"));
  chmodSync(base, 0o755);
  if (AS_ROOT) {
    const [uid, gid] = ["-u", "-g"].map((flag) => Number(spawnSync("id", [flag, "postgres"]).stdout.toString()));
    chownSync(base, uid, gid);
  }
  return join(base, "data");
}

/** Makes a cluster in a new folder: trust authentication, user `postgres`. */
function initdb(): string {
  const data = clusterPath();
  // --no-sync: nothing here outlives the test (the servers run with fsync off too).
  const args = ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"];
  const [command, argv] = asPostgres(program("initdb"), args);
  const made = spawnSync(command, argv, { encoding: "utf8" });
  if (made.status !== 0) throw new Error(`initdb failed: ${made.stderr}`);
  return data;
}

/**
 * Where this process keeps a copy of its first cluster, never started, in the run's scratch directory (see
 * {@link initCluster}): a variable of the process, which Deno's test modules share where a module's would not.
 */
const TEMPLATE = "MCPLITE_POSTGRES_TEMPLATE";

/**
 * Makes a cluster in a new folder. Under `npm test` (which names a scratch directory, and removes it once every lane
 * has ended), a copy (`cp -a`, owner and modes kept) of the first cluster `initdb` made in this test process:
 * `initdb` takes most of a second of CPU (its bootstrap runs PostgreSQL twice), a copy a tenth of that, and the
 * suite makes a cluster in each of many files. Elsewhere `initdb` each time, so that nothing is left behind.
 */
function initCluster(): string {
  const scratch = process.env.MCPLITE_SCRATCH_DIR;
  if (scratch === undefined) return initdb();
  const cp = (from: string, to: string) => {
    const copied = spawnSync("cp", ["-a", from, to], { encoding: "utf8" });
    if (copied.status !== 0) throw new Error(`copying the cluster ${from} failed: ${copied.stderr}`);
  };
  const template = process.env[TEMPLATE];
  if (template === undefined || !template.startsWith(scratch) || !existsSync(template)) {
    const data = initdb();
    const copy = join(mkdtempSync(join(scratch, "mcplite-pg-template-")), "data");
    cp(data, copy);
    process.env[TEMPLATE] = copy;
    return data;
  }
  const data = clusterPath();
  cp(template, data); // the postgres user's as root, as the template is
  return data;
}

/**
 * Makes a cluster and starts PostgreSQL on it (on `port`, default an unused one: onUnusedPort()); waits (at most
 * 60 s) until it says it is ready and answers a query.
 */
export function startPostgres(port?: number): Promise<PostgresServer> {
  return port === undefined ? onUnusedPort(startOn) : startOn(port);
}

/** {@link startPostgres} on `chosen`, on a cluster of its own: rejects, its log saying why, when it could not start. */
async function startOn(chosen: number): Promise<PostgresServer> {
  const data = initCluster();
  let server: WatchedProcess | undefined;
  const url = `postgres://postgres@127.0.0.1:${chosen}/postgres`;
  const launch = async () => {
    const [command, args] = asPostgres(program("postgres"), [
      "-D",
      data,
      "-p",
      String(chosen),
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      `unix_socket_directories=${join(data, "..")}`,
      "-c",
      "fsync=off",
    ]);
    // Stopped as an immediate shutdown (SIGQUIT) when the test process has ended.
    const started = server = await startWatched(command, args, { stopWith: "SIGQUIT", remove: join(data, "..") });
    // Its readiness: its log says so (so a query is not answered by another process on the port), then a query
    // answered (a bound of 60 s, for a loaded machine).
    const ready = async () => {
      if (started.child.exitCode !== null) throw new Error(`it exited with ${started.child.exitCode}`);
      if (!started.stderr().includes("ready to accept connections")) return false;
      const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
      probe.on("error", () => {});
      try {
        await probe.connect();
        await probe.query("SELECT 1");
        return true;
      } catch {
        return false;
      } finally {
        await probe.end().catch(() => {});
      }
    };
    await readUntil(ready, (answered) => answered, `postgres's answer to a query on port ${chosen}`, { everyMs: 100 })
      .catch((error) => {
        throw new Error(`postgres did not start on port ${chosen}: ${error.message}; ${started.stderr()}`);
      });
  };
  const running = () => server !== undefined && server.child.exitCode === null && server.child.signalCode === null;
  /** SIGINT (a fast shutdown) to the postmaster, which stops its backends; SIGKILL to every process. */
  const signal = async (name: "SIGINT" | "SIGKILL") => {
    if (!running()) return;
    const tree = processTree(server!.pid);
    if (name === "SIGKILL") signalTree(server!.pid, name);
    else {
      try {
        process.kill(server!.pid, name); // the postmaster, which stops its backends
      } catch { /* it has exited */ }
    }
    await server!.exited;
    // Every process gone (backends included), so that a start on the same cluster finds no live postmaster.
    await waitFor(() => !tree.some(alive), 10_000, `the end of postgres's processes ${tree.join(", ")}`);
  };
  const stop = async () => {
    if (running()) signalTree(server!.pid, "SIGCONT"); // a frozen server would not see the SIGINT
    const timer = setTimeout(() => signal("SIGKILL"), 10_000);
    await signal("SIGINT");
    clearTimeout(timer);
  };
  try {
    await launch();
  } catch (error) {
    await signal("SIGKILL");
    rmSync(join(data, ".."), { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    port: chosen,
    stop,
    kill: () => signal("SIGKILL"),
    pause: () => signalTree(server!.pid, "SIGSTOP"),
    resume: () => signalTree(server!.pid, "SIGCONT"),
    restart: launch,
    async remove() {
      await stop();
      rmSync(join(data, ".."), { recursive: true, force: true });
    },
  };
}
