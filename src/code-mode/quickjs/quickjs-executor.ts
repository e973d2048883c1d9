/**
 * `quickjsExecutor()`: code mode's default sandbox, QuickJS compiled to WebAssembly
 * (quickjs-emscripten's release build, no asyncify), on Deno, Bun, Node and Workers with no native addon
 * and no flag. Its WebAssembly is loaded once per executor, when the first program runs, and each program
 * gets a runtime and a context of its own, disposed when it ends.
 *
 * @module
 */
import releaseSync from "@jitl/quickjs-wasmfile-release-sync";
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";
import type { CodeExecutor } from "../executor.ts";
import { runInSandbox, type SandboxRun } from "./sandbox-run.ts";
import type { ThreadCpu } from "../../runtime/thread-priority.ts";

/**
 * The variant's object. Its types are CommonJS declarations, which Deno's type check reads as a module
 * whose `default` is the variant, while every runtime imports the variant itself (its ES module).
 */
function syncVariant(imported: QuickJSSyncVariant | { readonly default: QuickJSSyncVariant }): QuickJSSyncVariant {
  return "default" in imported ? imported.default : imported;
}

/** The memory an instance keeps beyond four programs' limits before it is replaced by a new one. */
const RETIRE_BASE_BYTES = 32 << 20;

/**
 * The options of {@link quickjsExecutor}.
 *
 * @example
 * ```ts ignore
 * // In a Cloudflare Worker, which compiles no WebAssembly from bytes: the module bundled at deploy.
 * import wasmModule from "@jitl/quickjs-wasmfile-release-sync/wasm";
 * import { quickjsExecutor, type QuickjsExecutorOptions } from "@mcplite/sdk/code-mode";
 * const options: QuickjsExecutorOptions = { wasmModule };
 * const executor = quickjsExecutor(options);
 * ```
 */
export interface QuickjsExecutorOptions {
  /**
   * The compiled `emscripten-module.wasm` of `@jitl/quickjs-wasmfile-release-sync` 0.32.0 (`import wasm from
   * "@jitl/quickjs-wasmfile-release-sync/wasm"` in a Worker), a `WebAssembly.Module` (typed `object` so that the
   * declarations type-check under Node's types without the DOM library, which declares that namespace). Default:
   * compiled from the file the package ships, read from disk.
   */
  readonly wasmModule?: object;
}

/**
 * Runs code mode's programs in QuickJS compiled to WebAssembly. Every program gets a fresh runtime and
 * context, with the limits it is given: time (checked while it computes, so that `while (true) {}` stops,
 * and while it awaits the host), memory, stack, output bytes, `__call`s in flight, and the request's abort.
 * Inside, nothing of the host is reachable: the sandbox's global holds the language's built-ins, `console`
 * and `__call` only (no `process`, `Deno`, `Bun`, `require`, `fetch`, timers, `WebAssembly`), and values
 * cross only as JSON. A program computes on the host's thread: `cpuMs` is how long a runaway one may hold
 * it (QuickJS checks the time every 10,000 steps; a built-in whose work grows with its input, and each
 * element a spread takes, counts as a step).
 *
 * The WebAssembly is compiled from the file that `@jitl/quickjs-wasmfile-release-sync` ships (read from
 * disk on Deno, Bun and Node), once per executor, when its first program runs; should the host's own stack
 * overflow inside it (a deeply nested program can do that, whatever `stackBytes` says), that program
 * stops with `"stack"` and the next one gets a new instance (for recursion, a `stackBytes` of 128 KiB keeps
 * clear of it on Node's and Deno's default stacks; 384 KiB does not). Workers refuse to compile
 * WebAssembly from bytes: there, import the `.wasm` file as a module and pass it as `wasmModule`.
 *
 * @param options The compiled WebAssembly module, where the host cannot compile it from bytes (Workers).
 * @returns An executor, to give to `codeMode({ executor })` or to call directly.
 *
 * @example Running a program with one tool call
 * ```ts
 * import { quickjsExecutor } from "@mcplite/sdk/code-mode";
 *
 * const executor = quickjsExecutor();
 * const outcome = await executor.execute({
 *   source: `const sum = await __call("add", { a: 2, b: 3 }); console.log("sum", sum); return sum * 2;`,
 *   call: async (name, args) => {
 *     const { a, b } = args as { a: number; b: number };
 *     return name === "add" ? a + b : Promise.reject(new Error(`no tool ${name}`));
 *   },
 *   limits: { timeMs: 5000, cpuMs: 1000, memoryBytes: 32 << 20, stackBytes: 128 << 10, outputBytes: 64 << 10, pendingCalls: 16 },
 * });
 * console.log(outcome); // { ok: true, value: 10, logs: ["sum 5"] }
 * ```
 */
export function quickjsExecutor(options: QuickjsExecutorOptions = {}): CodeExecutor {
  return sandboxExecutor(options.wasmModule);
}

/**
 * {@link quickjsExecutor}, its programs metered by their thread's CPU clock where it is given (a program's thread:
 * worker/program-worker.ts).
 *
 * @param wasmModule The compiled WebAssembly module, as {@link QuickjsExecutorOptions} says.
 * @param thread The CPU clock of the thread the programs run on.
 */
export function sandboxExecutor(wasmModule?: object, thread?: ThreadCpu): CodeExecutor {
  const variant = syncVariant(releaseSync);
  /** The WebAssembly instance programs run on, and how many run on it now. */
  let instance: { readonly module: Promise<QuickJSWASMModule>; running: number } | undefined;
  return {
    async execute(program) {
      const current = instance ??= {
        module: newQuickJSWASMModuleFromVariant(
          wasmModule === undefined ? variant : newVariant(variant, { wasmModule: wasmModule as WebAssembly.Module }),
        ),
        running: 0,
      };
      let module: QuickJSWASMModule;
      try {
        module = await current.module;
      } catch (error) {
        if (instance === current) instance = undefined; // the next program tries again
        throw error;
      }
      current.running++;
      let run: SandboxRun;
      try {
        run = await runInSandbox(module, program, thread);
      } finally {
        current.running--;
      }
      // A new instance for the next program when this one may be corrupt (a program still running on it
      // ends by its limits), or when it holds far more memory than programs are allowed (WebAssembly's
      // memory never shrinks: a long-lived server would keep the largest heap a program ever made).
      const bloated = current.running === 0 &&
        module.getWasmMemory().buffer.byteLength > RETIRE_BASE_BYTES + 4 * program.limits.memoryBytes;
      if (instance === current && (run.broken || bloated)) instance = undefined;
      return run.outcome;
    },
  };
}
