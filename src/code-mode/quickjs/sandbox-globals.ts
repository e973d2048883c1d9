/**
 * The two globals a program sees in QuickJS besides the language's own: `console`, whose lines go to the
 * host, and `__call(name, args)`, which crosses to the host as JSON text and back. Both are made by a
 * function evaluated in the sandbox and given the host functions as arguments, so that no host function is
 * a global, and with the sandbox's own `JSON` taken before the program runs (a program that replaces
 * `JSON.stringify` changes only what it computes itself).
 *
 * @module
 */
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";

/**
 * Evaluated once per context: takes the host's `emit(level, line)` and `call(name, argsJson)` and defines
 * `console` and `__call` on the sandbox's global. A value is formatted as a console would: a string as it
 * is, an error as `Name: message`, a function as `[Function name]`, an object as JSON, anything else by
 * `String`; formatting never throws (a throwing getter or `toString` prints `[unprintable]`).
 */
const PRELUDE = `(function (emit, call) {
  "use strict";
  const { stringify, parse } = JSON;
  const toText = String;
  const isError = (value) => value instanceof Error;
  const format = (value) => {
    try {
      if (typeof value === "string") return value;
      if (typeof value === "function") return "[Function " + (value.name || "anonymous") + "]";
      if (value !== null && typeof value === "object" && !isError(value)) {
        const json = stringify(value);
        if (json !== undefined) return json;
      }
      return toText(value);
    } catch {
      try {
        return toText(value);
      } catch {
        return "[unprintable]";
      }
    }
  };
  const line = (level) => function (...values) {
    let text = "";
    for (let i = 0; i < values.length; i++) text += (i === 0 ? "" : " ") + format(values[i]);
    emit(level, text);
  };
  const console = {
    log: line("log"),
    info: line("info"),
    warn: line("warn"),
    error: line("error"),
    debug: line("debug"),
  };
  async function __call(name, args) {
    const text = await call(toText(name), args === undefined ? undefined : stringify(args));
    return text === undefined ? undefined : parse(text);
  }
  Object.defineProperty(globalThis, "console", { value: console, writable: true, configurable: true });
  Object.defineProperty(globalThis, "__call", { value: __call, writable: true, configurable: true });
})`;

/** What the host does for the sandbox's two globals. */
export interface SandboxHost {
  /**
   * A console line (`level`: log, info, warn, error or debug).
   *
   * @param level The console method.
   * @param line The formatted line.
   */
  emit(level: string, line: string): void;
  /**
   * An `__call(name, args)`: `argsJson` is the arguments' JSON (`undefined` for none); returns the
   * promise's handle the sandbox awaits (it resolves to the result's JSON text).
   *
   * @param name The tool's name.
   * @param argsJson Its arguments, as JSON text.
   */
  call(name: string, argsJson: string | undefined): QuickJSHandle;
}

/**
 * Defines `console` and `__call` in `context`, on the host's functions. Throws when the sandbox cannot
 * (out of memory already): the caller disposes the context.
 *
 * @param context A fresh context.
 * @param host What the two globals call.
 */
export function defineSandboxGlobals(context: QuickJSContext, host: SandboxHost): void {
  const emit = context.newFunction("emit", (level, line) => {
    host.emit(context.getString(level), context.getString(line));
  });
  const call = context.newFunction("call", (name, args) => {
    return host.call(context.getString(name), context.typeof(args) === "string" ? context.getString(args) : undefined);
  });
  try {
    const prelude = context.unwrapResult(context.evalCode(PRELUDE, "prelude.js"));
    try {
      context.unwrapResult(context.callFunction(prelude, context.undefined, emit, call)).dispose();
    } finally {
      prelude.dispose();
    }
  } finally {
    emit.dispose();
    call.dispose();
  }
}
