/**
 * A program's thread yields the CPU to the server's: on Linux, where a thread has a nice value of its own
 * (setpriority(2) given a thread id, NOTES), it lowers its own to 10, so that busy programs, as many as the pool
 * runs, never starve the thread that serves requests. Elsewhere (a nice value is the whole process's) it does
 * nothing.
 *
 * @module
 */

/** The nice value of a program's thread: a tenth of the server thread's CPU share, each, when both want it. */
const NICE = 10;

/** Lowers the calling thread's priority, on Linux; never throws (no `node:os`, no permission: nothing changes). */
export function lowerThreadPriority(): void {
  const process = (globalThis as {
    process?: { pid?: number; getBuiltinModule?: (id: string) => unknown };
  }).process;
  try {
    const fs = process?.getBuiltinModule?.("node:fs") as { readlinkSync(path: string): string } | undefined;
    const os = process?.getBuiltinModule?.("node:os") as
      | { setPriority(pid: number, priority: number): void }
      | undefined;
    if (fs === undefined || os === undefined) return;
    // "<pid>/task/<tid>": this thread's own id, which setpriority(2) takes for the thread alone on Linux.
    const tid = Number(/^\d+\/task\/(\d+)$/.exec(fs.readlinkSync("/proc/thread-self"))?.[1]);
    if (Number.isSafeInteger(tid) && tid > 0 && tid !== process?.pid) os.setPriority(tid, NICE);
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}
