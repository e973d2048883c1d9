/**
 * A server program (redis-server, PostgreSQL) that ends with the test process however that ends: its `after()` never
 * run (Deno runs no top-level `after` of a module in which a test was skipped), a worker killed, `kill -9`. The
 * program runs under a small `sh` that holds a pipe from the test process; the kernel closes the pipe when the test
 * process ends, and at that end of input the shell stops the program (after a SIGCONT: a paused one would not see
 * the signal), kills it 5 s later if it is still there, and removes its folder. The test signals the program
 * itself (`pid`), never the shell, which exits when the program has.
 */
import { type ChildProcess, spawn } from "node:child_process";

/** A program started by {@link startWatched}. */
export interface WatchedProcess {
  /** The program's process id (the shell's child: its backends, if any, are the program's children). */
  readonly pid: number;
  /** The shell: it exits when the program has, with its status. */
  readonly child: ChildProcess;
  /** Settles when the program has exited. */
  readonly exited: Promise<void>;
  /** What the program wrote to stderr (and to stdout, with `logOnStdout`) so far (the first 64 KiB). */
  stderr(): string;
}

/** Options of {@link startWatched}. */
export interface WatchOptions {
  /** The signal that stops the program when the test process has ended (SIGTERM by default). */
  readonly stopWith?: "SIGTERM" | "SIGINT" | "SIGQUIT";
  /** A folder of the program's to remove once it has ended, if the test process ended first. */
  readonly remove?: string;
  /** The program logs on stdout (redis-server does): kept with its stderr, where it is otherwise dropped. */
  readonly logOnStdout?: boolean;
}

// $1: the signal; $2: the folder to remove ("" for none); $3: where the program's stdout goes; then the program. The reader (a subshell) reads the pipe
// from the test process until its end; the shell waits for the program and ends the reader (SIGTERM) unless the
// reader is stopping the program already (it ignores SIGTERM from then on). An asynchronous list's standard input is
// /dev/null in sh unless redirected, hence the pipe's copy on fd 3.
const WATCHDOG = `
signal=$1; folder=$2; out=$3; shift 3
exec 3<&0 </dev/null
if [ "$out" = stderr ]; then "$@" 1>&2 3<&- & else "$@" >/dev/null 3<&- & fi
program=$!
echo "$program"
(
  while read -r _; do :; done
  trap '' TERM
  pkill -CONT -P "$program"; kill -CONT "$program"; kill -"$signal" "$program"
  i=0
  while kill -0 "$program" 2>/dev/null && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  pkill -KILL -P "$program"; kill -KILL "$program" 2>/dev/null
  [ -z "$folder" ] || rm -rf "$folder"
) <&3 3<&- &
reader=$!
exec 3<&-
wait "$program"
status=$?
kill "$reader" 2>/dev/null
exit "$status"
`;

/**
 * Starts `command` under the watchdog shell, in a process group of its own (a terminal's Ctrl-C reaches the test
 * process, whose end stops the program), and resolves once it runs.
 *
 * @param command The program.
 * @param args Its arguments.
 * @param options What stops it, and what to remove after.
 * @returns The running program.
 */
export async function startWatched(
  command: string,
  args: readonly string[],
  options: WatchOptions = {},
): Promise<WatchedProcess> {
  const signal = (options.stopWith ?? "SIGTERM").slice(3);
  const child = spawn("sh", [
    "-c",
    WATCHDOG,
    "watchdog",
    signal,
    options.remove ?? "",
    options.logOnStdout ? "stderr" : "null",
    command,
    ...args,
  ], {
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr!.on("data", (chunk) => {
    if (stderr.length < 65_536) stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const pid = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      if (out.includes("\n")) resolve(Number(out.slice(0, out.indexOf("\n"))));
    });
    child.once("error", reject);
    exited.then(() => reject(new Error(`${command} did not start: ${stderr}`)));
  });
  return { pid, child, exited, stderr: () => stderr };
}
