/**
 * What the model reads when its program stops: for each limit, the limit's value and what to change in the
 * program; for an exception, its name, message and the program's line. One place, so that every executor
 * path words a limit the same way.
 *
 * @module
 */
import type { CodeExecutor } from "../executor.ts";
import { namedCallee } from "../callee-expression.ts";

/** A program, as the executor contract gives it. */
export type Program = Parameters<CodeExecutor["execute"]>[0];
/** Why a program stopped, as the executor contract says it. */
export type StopReason = Extract<Awaited<ReturnType<CodeExecutor["execute"]>>, { ok: false }>["reason"];

/** `bytes` as people read it: `512 KiB`, `64 MiB`, `900 bytes`. */
function size(bytes: number): string {
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes / (1 << 20)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * The message of a limit reached (or of the request's abort).
 *
 * @param reason The limit.
 * @param limits The program's limits, whose value the message says.
 */
export function limitMessage(reason: Exclude<StopReason, "syntax" | "thrown">, limits: Program["limits"]): string {
  switch (reason) {
    case "time":
      return `the program ran past its ${limits.timeMs} ms time limit: do less work per program (fewer calls, ` +
        `smaller loops) or filter earlier, and split long work into several programs`;
    case "cpu":
      return `the program computed for more than its ${limits.cpuMs} ms CPU limit: compute less per program ` +
        `(smaller loops, no busy waiting), filter earlier, and split long work into several programs`;
    case "memory":
      return `the program ran out of its ${size(limits.memoryBytes)} memory limit: hold less data at once ` +
        `(keep only the fields you need from each result, filter or slice before collecting)`;
    case "stack":
      return `the program overflowed its ${size(limits.stackBytes)} stack (recursion or nesting too deep): ` +
        `use a loop instead of recursion, and nest data and expressions less deeply`;
    case "output":
      return `the program's output (console lines and result together) passed its ${size(limits.outputBytes)} ` +
        `limit: log less, and return only what is needed (filter, slice or summarise first)`;
    case "calls":
      return `the program had more than ${limits.pendingCalls} tool calls in flight at once: await them in ` +
        `batches of at most ${limits.pendingCalls} (Promise.all over slices of the list)`;
    case "aborted":
      return "the request was cancelled, so the program was stopped before its end";
  }
}

/** The message of a program that awaits a promise nothing can settle. */
export function stalledMessage(limits: Program["limits"]): string {
  return `the program awaits a promise that nothing can settle (no tool call is in flight and no timers exist), ` +
    `so it would never end within its ${limits.timeMs} ms time limit: resolve every promise it creates`;
}

/**
 * An exception as QuickJS's `dump()` gives it: an error's fields, or any thrown value; given the program's text,
 * a `not a function` names its callee, as V8's message does (`callee-expression.ts`).
 */
export function thrownMessage(dumped: unknown, text?: string): string {
  if (dumped !== null && typeof dumped === "object" && typeof (dumped as { message?: unknown }).message === "string") {
    const { name, message, stack } = dumped as { name?: unknown; message: string; stack?: unknown };
    const where = typeof stack === "string" ? /\(?(program\.js:\d+(?::\d+)?)\)?/.exec(stack)?.[1] : undefined;
    const said = text === undefined ? message : namedCallee(message, text, where?.slice("program.js:".length));
    return `${typeof name === "string" ? name : "Error"}: ${said}${where === undefined ? "" : ` (at ${where})`}`;
  }
  let shown: string;
  try {
    shown = JSON.stringify(dumped) ?? String(dumped);
  } catch {
    shown = String(dumped);
  }
  return `Uncaught ${shown.length > 500 ? `${shown.slice(0, 500)}…` : shown}`;
}

/**
 * The limit an exception stands for, when QuickJS raised it for one: `InternalError: stack overflow`, `out of
 * memory`, or `interrupted` (the interrupt handler's stop); and its parser's `SyntaxError: stack overflow`, a
 * source nested past the stack.
 *
 * @param dumped The exception, dumped.
 */
export function limitOfError(dumped: unknown): "stack" | "memory" | "time" | undefined {
  if (dumped === null || typeof dumped !== "object") return undefined;
  const { name, message } = dumped as { name?: unknown; message?: unknown };
  if (name === "SyntaxError" && message === "stack overflow") return "stack";
  if (name !== "InternalError") return undefined;
  if (message === "stack overflow") return "stack";
  // A string past QuickJS's longest (2^30 - 1 characters), which concatenation reaches without holding it.
  if (message === "out of memory" || message === "string too long") return "memory";
  if (message === "interrupted") return "time";
  return undefined;
}

/** The message of a result that is not JSON. */
export function notJsonMessage(detail: string): string {
  return `the program's result is not JSON (${detail}): return plain data only (objects, arrays, strings, ` +
    `finite numbers, booleans, null), e.g. convert a BigInt with String() and drop functions and cycles`;
}
