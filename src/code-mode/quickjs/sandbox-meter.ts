/**
 * What a program in QuickJS has used of its time and memory. QuickJS's own memory limit, in this build,
 * bounds one allocation and the count of blocks, not their bytes (quickjs-emscripten#271), so the heap is
 * measured by walking it, as often as costs a tenth of the time; strings built by concatenation (ropes)
 * escape that walk, so the WebAssembly memory's growth while the program runs counts too.
 *
 * @module
 */
import type { QuickJSContext, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core";
import type { Program } from "./stop-messages.ts";
import type { ThreadCpu } from "../../runtime/thread-priority.ts";

/**
 * The most interrupts QuickJS makes in a millisecond (an empty loop, on a fast machine, makes about 5):
 * where the clock stands still, this many interrupts count as a millisecond.
 */
const INTERRUPTS_PER_MS = 10;
/** The least time between two walks of a program's heap, in milliseconds (and before the first). */
const MEMORY_CHECK_MS = 5;
/** The least time between two reads of a thread's CPU clock, in milliseconds: the interrupt handler is hot. */
const CPU_READ_MS = 4;
/** The CPU a program computes before its thread yields to the server's for the rest of it, in milliseconds. */
const LONG_MS = 30;

/** A program's meter. */
export interface SandboxMeter {
  /**
   * Runs `work`, QuickJS running the program or taking in what the host gives it, as a slice of the
   * program's: the instance's growth meanwhile is the program's (one program runs at a time on the host's
   * thread, and its time between slices is the host's).
   *
   * @param work What runs in QuickJS.
   */
  slice<T>(work: () => T): T;
  /** The limit the program has passed, if any: called by the interrupt handler and between slices. */
  passed(): "time" | "cpu" | "memory" | undefined;
}

/** The bytes a runtime's heap holds, as QuickJS counts them walking it (Infinity when it cannot). */
function heapBytes(runtime: QuickJSRuntime, context: QuickJSContext): number {
  try {
    const usage = runtime.computeMemoryUsage();
    try {
      const used = context.getProp(usage, "memory_used_size");
      try {
        return context.typeof(used) === "number" ? context.getNumber(used) : Infinity;
      } finally {
        used.dispose();
      }
    } finally {
      usage.dispose();
    }
  } catch (error) {
    if (error instanceof RangeError) throw error; // the host's stack: the caller's to handle
    return Infinity;
  }
}

/**
 * A meter for the program running in `runtime`.
 *
 * @param module The instance it runs on.
 * @param runtime Its runtime.
 * @param context Its context.
 * @param limits Its limits.
 * @param deadline When its time ends (`Date.now()`'s clock).
 * @param thread Its thread's CPU clock, where it can be read: `cpu` is what the program computes by the wall
 *   clock, confirmed by this one.
 */
export function sandboxMeter(
  module: QuickJSWASMModule,
  runtime: QuickJSRuntime,
  context: QuickJSContext,
  limits: Program["limits"],
  deadline: number,
  thread?: ThreadCpu,
): SandboxMeter {
  const memory = module.getWasmMemory();
  let grown = 0;
  let sliceFrom = -1;
  let computed = 0; // ms spent in finished slices: the program's CPU time on the host's thread
  let sliceAt = 0;
  let walkAt = Date.now() + MEMORY_CHECK_MS; // a short program is not walked: the first walk costs most
  let clock = 0;
  let sameClock = 0;
  const cpuFrom = thread?.cpuMs() ?? 0;
  let cpu = 0; // the program's CPU on its thread, as last read
  let cpuAt = -Infinity;
  let long = false;
  /** The program's CPU so far: its wall figure, or, past `wall`, the thread's clock (read every CPU_READ_MS). */
  const cpuUsed = (wall: number, at: number): number => {
    if (thread === undefined) return wall;
    if (at - cpuAt >= CPU_READ_MS) (cpuAt = at), (cpu = thread.cpuMs() - cpuFrom);
    return Number.isNaN(cpu) ? wall : cpu;
  };
  return {
    slice(work) {
      sliceFrom = memory.buffer.byteLength;
      sliceAt = performance.now();
      try {
        return work();
      } finally {
        grown += memory.buffer.byteLength - sliceFrom;
        computed += performance.now() - sliceAt;
        sliceFrom = -1;
      }
    },
    passed() {
      const now = Date.now();
      if (now > deadline) return "time";
      const at = performance.now();
      const wall = computed + (sliceFrom < 0 ? 0 : at - sliceAt);
      // A thread waiting for a core passes cpuMs by the wall clock long before it has computed that much.
      if (wall > limits.cpuMs && cpuUsed(wall, at) > limits.cpuMs) return "cpu";
      if (!long && wall >= LONG_MS && cpuUsed(wall, at) >= LONG_MS) (long = true), thread?.long();
      // Workers may hold Date.now() still while code runs (it moves on I/O): interrupts count instead there.
      if (now !== clock) (clock = now), (sameClock = 0);
      else if (++sameClock > Math.min(limits.timeMs, limits.cpuMs) * INTERRUPTS_PER_MS) return "cpu";
      if (grown + (sliceFrom < 0 ? 0 : memory.buffer.byteLength - sliceFrom) > limits.memoryBytes) return "memory";
      if (now < walkAt) return undefined;
      const over = heapBytes(runtime, context) > limits.memoryBytes;
      walkAt = Date.now() + Math.max(MEMORY_CHECK_MS, (Date.now() - now) * 10);
      return over ? "memory" : undefined;
    },
  };
}
