/**
 * One program in QuickJS: a fresh runtime and context with the program's limits, its source evaluated as the
 * body of an async function, its promise driven by running the sandbox's pending jobs whenever a host call
 * settles, and everything disposed after, on every path. Time is checked by the interrupt handler while the
 * sandbox computes (it is what stops a synchronous loop) and by a host timer while it awaits the host;
 * time and memory are metered by sandbox-meter.ts.
 *
 * @module
 */
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSWASMModule } from "quickjs-emscripten-core";
import type { CodeExecutor } from "../executor.ts";
import { guardNatives } from "./native-guards.ts";
import { defineSandboxGlobals, type SandboxHost } from "./sandbox-globals.ts";
import { sandboxMeter } from "./sandbox-meter.ts";
import type { ThreadCpu } from "../../runtime/thread-priority.ts";
import {
  limitMessage,
  limitOfError,
  notJsonMessage,
  type Program,
  stalledMessage,
  type StopReason,
  thrownMessage,
} from "./stop-messages.ts";

/** An outcome, as the executor contract says it. */
type Outcome = Awaited<ReturnType<CodeExecutor["execute"]>>;

/** A run's outcome, and whether the WebAssembly instance it ran on must not be used again. */
export interface SandboxRun {
  readonly outcome: Outcome;
  /** An error escaped QuickJS (the host's own stack overflowed inside it): its instance may be corrupt. */
  readonly broken: boolean;
}

/** How many sandbox jobs run between two looks at the host (its timers, the request's abort). */
const JOBS_PER_TURN = 4096;
/** How long the sandbox's jobs may hold the host's event loop before it yields a turn, in milliseconds. */
const TURN_MS = 20;

/**
 * `handle` if QuickJS made it, else null, the exception it raised (out of memory) cleared: a value made
 * from the host that fails is an exception marker, with the error left pending in the runtime.
 */
function created(context: QuickJSContext, handle: QuickJSHandle, type: "string" | "object"): QuickJSHandle | null {
  if (context.typeof(handle) === type) return handle;
  handle.dispose();
  // Throwing replaces (and frees) the pending exception; the thrown value is then freed with its handle.
  const thrown = context.evalCode("throw 0");
  thrown.error?.dispose();
  if (!thrown.error) thrown.value.dispose();
  return null;
}

/** The program wrapped as an async function's body, its first line on the wrapper's line (lines stay). */
function wrap(source: string): string {
  return `(async () => {${source}\n})()`;
}

/** The UTF-8 length of `text`, without encoding it. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) (bytes += 4), i++;
    else bytes += 3;
  }
  return bytes;
}

/** A message for an error the host's call rejected with. */
function hostErrorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Defines the sandbox's globals and guards; false when its memory limit leaves no room for them. */
function defineGlobals(context: QuickJSContext, host: SandboxHost, check: () => void): boolean {
  try {
    defineSandboxGlobals(context, host);
    guardNatives(context, check);
    return true;
  } catch (error) {
    if (error instanceof RangeError) throw error;
    return false;
  }
}

/**
 * Runs `program` on `module`, in a runtime and context of its own, disposed before this resolves.
 *
 * @param module The loaded QuickJS module (one WebAssembly instance).
 * @param program The program, its host call and its limits.
 * @param thread The CPU clock of the thread it runs on, where it can be read (sandbox-meter.ts).
 */
export async function runInSandbox(
  module: QuickJSWASMModule,
  program: Program,
  thread?: ThreadCpu,
): Promise<SandboxRun> {
  const { limits, signal } = program;
  const logs: string[] = [];
  if (signal?.aborted) return { outcome: stopped("aborted"), broken: false };

  const deadline = Date.now() + limits.timeMs;
  let stop: Exclude<StopReason, "syntax" | "thrown"> | undefined;
  let outputBytes = 0;
  let inFlight = 0;
  let alive = true;
  let wake: (() => void) | undefined;
  const deferreds = new Set<QuickJSDeferredPromise>();
  const halt = (reason: NonNullable<typeof stop>) => {
    stop ??= reason;
    wake?.();
  };
  const onAbort = () => halt("aborted");
  signal?.addEventListener("abort", onAbort);

  function stopped(reason: NonNullable<typeof stop>): Outcome {
    return { ok: false, reason, message: limitMessage(reason, limits), logs };
  }

  const runtime = module.newRuntime();
  let context: QuickJSContext | undefined;
  const handles: QuickJSHandle[] = [];
  let broken = false;
  let outcome: Outcome;
  try {
    outcome = await drive();
  } catch (error) {
    // Only an error of the host escapes QuickJS: its stack overflowed inside it (a RangeError), or the
    // instance aborted. Its heap may be mid-change: nothing more runs on it, nor is anything freed in it.
    broken = true;
    outcome = stopped(stop ?? (error instanceof RangeError ? "stack" : "memory"));
  }
  alive = false;
  signal?.removeEventListener("abort", onAbort);
  if (!broken) {
    // QuickJS asserts, freeing a runtime, that nothing of it is left: a leak aborts here, and is reported.
    try {
      for (const handle of handles) if (handle.alive) handle.dispose();
      for (const deferred of deferreds) deferred.dispose();
      context?.dispose();
      runtime.dispose();
    } catch {
      broken = true;
    }
  }
  return { outcome, broken };

  /** Sets the sandbox up, runs the program and drives its promise to an outcome. */
  async function drive(): Promise<Outcome> {
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(Math.max(1, limits.stackBytes));
    const ctx = context = runtime.newContext();
    const meter = sandboxMeter(module, runtime, ctx, limits, deadline, thread);
    const slice = meter.slice;
    const checkLimits = () => {
      // A thread's signal may abort with no event while the program computes (worker/stop-flag.ts): read here.
      stop ??= signal?.aborted ? "aborted" : meter.passed();
      return stop !== undefined;
    };
    runtime.setInterruptHandler(checkLimits);
    // The sandbox's own JSON.stringify, taken before the program can replace it, for the result.
    const sandboxJson = ctx.getProp(ctx.global, "JSON");
    handles.push(sandboxJson);
    const stringify = ctx.getProp(sandboxJson, "stringify");
    handles.push(stringify);

    /** Settles a host call's promise in the sandbox; a no-op once the program has ended. */
    const settle = (deferred: QuickJSDeferredPromise, fulfilled: boolean, value: unknown) => {
      inFlight--;
      deferreds.delete(deferred);
      if (!alive || !deferred.alive) return;
      try {
        if (fulfilled) {
          let json: string | undefined;
          try {
            json = JSON.stringify(value);
          } catch (error) {
            fulfilled = false;
            value = new TypeError(`the tool's result is not JSON: ${hostErrorMessage(error)}`);
          }
          if (fulfilled) {
            // A result longer than the whole heap allowed is refused before it is copied in.
            if (json !== undefined && json.length > limits.memoryBytes) return halt("memory");
            const text = json === undefined ? undefined : slice(() => created(ctx, ctx.newString(json), "string"));
            if (text === null) return halt("memory");
            deferred.resolve(text);
            text?.dispose();
          }
        }
        if (!fulfilled) {
          const error = created(ctx, ctx.newError(hostErrorMessage(value)), "object");
          if (error === null) return halt("memory");
          deferred.reject(error);
          error.dispose();
        }
      } catch (error) {
        if (error instanceof RangeError) broken = true;
        halt("memory");
      } finally {
        deferred.dispose();
        wake?.();
      }
    };

    const defined = defineGlobals(ctx, {
      emit(level, line) {
        // Past a limit, the console throws: a loop that only logs ends now, not at the next interrupt.
        if (stop !== undefined) throw new Error(limitMessage(stop, limits));
        const text = level === "warn" || level === "error" ? `[${level}] ${line}` : line;
        outputBytes += utf8Length(text) + 1;
        if (outputBytes > limits.outputBytes) {
          halt("output");
          throw new Error(limitMessage("output", limits));
        }
        logs.push(text);
      },
      call(name, argsJson) {
        if (stop !== undefined) throw new Error(limitMessage(stop, limits));
        if (inFlight >= limits.pendingCalls) {
          halt("calls");
          throw new Error(limitMessage("calls", limits));
        }
        const deferred = ctx.newPromise();
        deferreds.add(deferred);
        inFlight++;
        Promise.resolve()
          .then(() => program.call(name, argsJson === undefined ? undefined : JSON.parse(argsJson)))
          .then((value) => settle(deferred, true, value), (error) => settle(deferred, false, error));
        return deferred.handle;
      },
    }, () => {
      if (checkLimits()) throw new Error(limitMessage(stop ?? "time", limits));
    });
    // Setting up runs guarded code, metered: a program whose time ran out waiting for a thread stops here.
    if (!defined) return stopped(stop ?? "memory");

    const evaluated = slice(() => ctx.evalCode(wrap(program.source), "program.js"));
    if (evaluated.error) {
      handles.push(evaluated.error);
      return failure(ctx, evaluated.error, true, slice);
    }
    const promise = evaluated.value;
    handles.push(promise);

    let turnStarted = Date.now();
    for (;;) {
      const jobs = slice(() => runtime.executePendingJobs(JOBS_PER_TURN));
      if (jobs.error) {
        handles.push(jobs.error);
        return failure(ctx, jobs.error, false, slice);
      }
      // Native work (a large JSON.parse, a host result copied in) may have run with no interrupt between.
      if (checkLimits()) return stopped(stop ?? "memory");
      const state = ctx.getPromiseState(promise);
      if (state.type === "fulfilled") {
        handles.push(state.value);
        return slice(() => result(ctx, state.value, stringify));
      }
      if (state.type === "rejected") {
        handles.push(state.error);
        return failure(ctx, state.error, false, slice);
      }
      if (runtime.hasPendingJob()) {
        if (Date.now() - turnStarted >= TURN_MS) {
          await new Promise((resolve) => setTimeout(resolve, 0));
          turnStarted = Date.now();
        }
        continue;
      }
      if (inFlight === 0) {
        return { ok: false, reason: "time", message: stalledMessage(limits), logs };
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
      });
      wake = undefined;
      clearTimeout(timer);
      if (stop === undefined && Date.now() >= deadline) stop = "time";
      if (stop !== undefined) return stopped(stop);
      turnStarted = Date.now();
    }
  }

  /** The outcome of an exception: a limit's, when QuickJS raised it for one, else the program's. */
  function failure(
    ctx: QuickJSContext,
    error: QuickJSHandle,
    parsing: boolean,
    slice: <T>(work: () => T) => T,
  ): Outcome {
    if (stop !== undefined) return stopped(stop);
    let dumped: unknown;
    try {
      // Reading the thrown value runs its getters, the program's own code: metered, so a getter that loops stops
      // at the CPU limit as any loop does.
      dumped = slice(() => ctx.dump(error));
    } catch {
      return stopped(stop ?? "memory");
    }
    if (stop !== undefined) return stopped(stop);
    const limit = limitOfError(dumped);
    if (limit !== undefined) return stopped(limit);
    const syntax = parsing && (dumped as { name?: unknown } | null)?.name === "SyntaxError";
    const message = thrownMessage(dumped, wrap(program.source)); // a callee named where QuickJS names none
    return { ok: false, reason: syntax ? "syntax" : "thrown", message, logs };
  }

  /** The outcome of the program's result: its JSON, if it has one and it fits the output limit. */
  function result(ctx: QuickJSContext, value: QuickJSHandle, stringify: QuickJSHandle): Outcome {
    const type = ctx.typeof(value);
    if (type === "undefined") return { ok: true, value: undefined, logs };
    if (type === "function" || type === "symbol" || type === "bigint") {
      return { ok: false, reason: "thrown", message: notJsonMessage(`a ${type}`), logs };
    }
    const text = ctx.callFunction(stringify, ctx.undefined, value);
    if (text.error) {
      handles.push(text.error);
      if (stop !== undefined) return stopped(stop);
      const dumped = ctx.dump(text.error);
      const limit = limitOfError(dumped);
      if (limit !== undefined) return stopped(limit);
      return { ok: false, reason: "thrown", message: notJsonMessage(thrownMessage(dumped)), logs };
    }
    handles.push(text.value);
    if (ctx.typeof(text.value) !== "string") {
      return { ok: false, reason: "thrown", message: notJsonMessage("it has no JSON form"), logs };
    }
    const serialised = ctx.getString(text.value);
    outputBytes += utf8Length(serialised);
    if (outputBytes > limits.outputBytes) return stopped("output");
    return { ok: true, value: JSON.parse(serialised), logs };
  }
}
