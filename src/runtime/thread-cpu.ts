/**
 * A thread's own CPU time, on Linux: the first field of `/proc/thread-self/schedstat` (or a thread's by id under
 * `/proc/self/task/`), nanoseconds on the CPU (proc(5)). A program's thread that waited for a core, starved at its
 * lowered priority on a loaded machine, has computed nothing meanwhile: its CPU limit reads this clock, not the wall.
 *
 * @module
 */

/**
 * The CPU time a thread of this process has used, in ms.
 *
 * @param tid The thread's id (default: the calling thread).
 * @returns The time, or `undefined` where there is no such file (not Linux, no permission to read it).
 */
export function threadCpuMs(tid?: number): number | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const fs = process?.getBuiltinModule?.("node:fs") as { readFileSync(path: string, encoding: "utf8"): string };
    const text = fs.readFileSync(
      tid === undefined ? "/proc/thread-self/schedstat" : `/proc/self/task/${tid}/schedstat`,
      "utf8",
    );
    const ns = Number(text.slice(0, text.indexOf(" ")));
    return Number.isFinite(ns) ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  }
}
