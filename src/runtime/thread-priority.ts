/**
 * A program's thread and the CPU, on Linux, where a thread has an id, a CPU clock (proc(5), /proc/pid/task/tid/
 * schedstat: its first field is the nanoseconds it ran) and a nice value of its own (setpriority(2), NOTES): the
 * thread can lower its own priority, and its CPU time can be read by itself and by its parent. Elsewhere (no /proc,
 * a nice value for the whole process) the id and the clock are undefined and the priority stays.
 *
 * @module
 */

/**
 * The thread a program runs on, where its CPU clock can be read (a program's thread on Linux: code mode's
 * worker/program-worker.ts): `cpu` is judged by that clock, so that a thread waiting for a core is not stopped for it.
 * Here, not beside the meter that reads it, so that the executor's declarations name no QuickJS type.
 */
export interface ThreadCpu {
  /** The CPU time the thread has used, in milliseconds (NaN: unreadable). */
  readonly cpuMs: () => number;
  /** Called once, when the program has computed enough CPU to yield (code mode's sandbox-meter.ts, LONG_MS). */
  readonly long: () => void;
}

/** The nice value of a long program's thread: a tenth of the server thread's CPU share, each, when both want it. */
const NICE = 10;

/** `node:fs`, where the runtime hands it over (as far as this file uses it). */
function nodeFs(): { readlinkSync(path: string): string; readFileSync(path: string, encoding: "latin1"): string } {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fs = process?.getBuiltinModule?.("node:fs") as ReturnType<typeof nodeFs> | undefined;
  if (fs === undefined) throw new TypeError("no node:fs");
  return fs;
}

/**
 * The calling thread's id, on Linux (undefined elsewhere, or on the process's main thread, whose priority is the
 * process's).
 */
export function threadId(): number | undefined {
  try {
    // "<pid>/task/<tid>": this thread's own id.
    const tid = Number(/^\d+\/task\/(\d+)$/.exec(nodeFs().readlinkSync("/proc/thread-self"))?.[1]);
    const pid = (globalThis as { process?: { pid?: number } }).process?.pid;
    return Number.isSafeInteger(tid) && tid > 0 && tid !== pid ? tid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The CPU clock of thread `tid` of this process: the milliseconds it has run, NaN once it cannot be read (the thread
 * ended). Undefined where it cannot be read at all. A read costs a system call or three: callers read it sparingly.
 *
 * @param tid The thread's id, from {@link threadId} on that thread.
 */
export function threadCpuClock(tid: number | undefined): (() => number) | undefined {
  if (tid === undefined) return undefined;
  const path = `/proc/self/task/${tid}/schedstat`;
  const read = () => {
    try {
      return Number.parseInt(nodeFs().readFileSync(path, "latin1"), 10) / 1e6;
    } catch {
      return NaN;
    }
  };
  return Number.isFinite(read()) ? read : undefined;
}

/**
 * Lowers the calling thread's priority, on Linux, but not on Deno; never throws (no `node:os`, no permission: nothing
 * changes). An unprivileged thread cannot raise it back: a lowered thread serves no further program. Deno's threads
 * keep the process's priority: a Deno thread calls malloc_trim(0) as it exits, which locks each of glibc's arenas in
 * turn, the server thread's too, and a thread at nice 10 waiting for a core held that lock while the server's thread
 * waited on it (0.2-1.2 s in a futex wait on a busy machine: priority inversion).
 *
 * @param tid The calling thread's id, from {@link threadId}.
 */
export function lowerThreadPriority(tid: number | undefined): void {
  if ("Deno" in globalThis) return;
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const os = process?.getBuiltinModule?.("node:os") as
      | { setPriority(pid: number, priority: number): void }
      | undefined;
    if (tid !== undefined) os?.setPriority(tid, NICE);
  } catch {
    // Not allowed: the thread keeps the process's priority.
  }
}
