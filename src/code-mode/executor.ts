/**
 * The executor contract of code mode: what runs a model's program in a sandbox. The default runs it in
 * QuickJS compiled to WebAssembly (every runtime, no native addon); another (isolated-vm, a Deno
 * subprocess, a Worker loader) plugs in by implementing this one method.
 *
 * @module
 */

/**
 * Runs one program in a sandbox. The program is JavaScript (TypeScript is stripped before it arrives): the
 * body of an async function, so `await` and `return` work at its top level. Inside, the sandbox defines exactly
 * two globals besides the language's own: `__call(name, args)`, an async function that is the program's only way
 * out (each call goes to `call` below and resolves, or rejects with an `Error` whose message is the host's), and
 * `console` (`log`, `info`, `warn`, `error`, `debug`), whose lines are kept in `logs`. Nothing of the host (no
 * network, file system, environment, timers, `process`, `Deno`, `Bun`, `require`, `fetch`) is reachable.
 */
export interface CodeExecutor {
  /**
   * Runs `program` to its end, its failure or a limit. Never throws for anything the program does: every
   * outcome is a value. Rejects only when the executor itself cannot run (its WebAssembly failed to load).
   *
   * @param program The source, the one host function and the limits.
   * @returns The program's result as JSON, or why it stopped, with its console lines either way.
   */
  execute(program: {
    /** The program: the body of an async function, in JavaScript. */
    readonly source: string;
    /** What `__call(name, args)` inside the sandbox calls; its result crosses back as JSON. */
    readonly call: (name: string, args: unknown) => Promise<unknown>;
    /** The limits to enforce; a program past one stops with that limit's `reason`. */
    readonly limits: {
      /** Wall time from start to result, in milliseconds, waits for `__call`s included (`"time"`). */
      readonly timeMs: number;
      /**
       * Time the program itself computes, in milliseconds (`"cpu"`): an in-process executor computes on the
       * host's thread, so this bounds how long one program can hold it.
       */
      readonly cpuMs: number;
      /** Heap the program may hold, in bytes (`"memory"`). */
      readonly memoryBytes: number;
      /** Stack the program may use, in bytes (`"stack"`: deep recursion). */
      readonly stackBytes: number;
      /** Bytes of console lines and result JSON together (`"output"`). */
      readonly outputBytes: number;
      /** `__call`s in flight at once (`"calls"`: a flood of promises). */
      readonly pendingCalls: number;
    };
    /** Aborted when the request is: the program stops (`"aborted"`). */
    readonly signal?: AbortSignal;
  }): Promise<
    | { readonly ok: true; readonly value: unknown; readonly logs: readonly string[] }
    | {
      readonly ok: false;
      /** Why it stopped: a limit, the request's abort, a syntax error, or an exception the program threw. */
      readonly reason: "time" | "cpu" | "memory" | "stack" | "output" | "calls" | "aborted" | "syntax" | "thrown";
      /** What the model reads: the exception's name and message, or which limit and its value. */
      readonly message: string;
      readonly logs: readonly string[];
    }
  >;
}
