/**
 * QuickJS asks its interrupt handler every 10,000 calls or backward jumps, however long each takes: a loop
 * around one native call on large data (`for (;;) JSON.parse(text)`, `a.slice().sort()`) would hold the
 * host's thread long past its time limit between two asks. The built-ins whose work grows with their input
 * are wrapped, in each sandbox, so that a call on a large input, and every 64th call, asks the host first.
 * The built-in iterators' `next()` is wrapped too, so that a spread or `for...of` counts a step per element, and
 * the buffer constructors, whose bytes QuickJS's memory limit does not count.
 *
 * @module
 */
import type { QuickJSContext } from "quickjs-emscripten-core";

/**
 * Evaluated once per context, given the host's `check()` (which throws once a limit has passed). `size`
 * reads how much work a call is before it runs (a receiver's or an argument's length); a wrapper keeps the
 * native's name, length and property attributes, and calls it with the same receiver and arguments.
 */
const GUARDS = `(function (check) {
  "use strict";
  const apply = Reflect.apply;
  const define = Object.defineProperty;
  const describe = Object.getOwnPropertyDescriptor;
  const LARGE = 1024;
  const EVERY = 64;
  let calls = 0;
  const lengthOf = (value) => {
    try {
      return value === null || value === undefined ? 0 : +value.length || 0;
    } catch {
      return 0;
    }
  };
  const receiver = (self) => lengthOf(self);
  // Asks the host before a large piece of work (size past LARGE), and before every 64th call whatever its size.
  const ask = (size) => {
    if (++calls >= EVERY || size > LARGE) {
      calls = 0;
      check();
    }
  };
  const guard = (owner, names, size) => {
    for (const name of names) {
      const descriptor = describe(owner, name);
      if (descriptor === undefined || typeof descriptor.value !== "function") continue;
      const native = descriptor.value;
      const wrapped = {
        [name](...args) {
          ask(size(this, args));
          return apply(native, this, args);
        },
      }[name];
      define(wrapped, "length", { value: native.length });
      define(owner, name, { ...descriptor, value: wrapped });
    }
  };
  guard(JSON, ["parse"], (self, args) => lengthOf(args[0]));
  guard(JSON, ["stringify"], (self, args) => lengthOf(args[0]));
  guard(Array.prototype, ["sort", "join", "indexOf", "lastIndexOf", "includes", "fill", "reverse", "slice",
    "concat", "splice", "flat", "copyWithin", "toSorted", "toReversed", "toSpliced", "with"], receiver);
  guard(Array, ["from", "of"], (self, args) => Math.max(lengthOf(args[0]), args.length));
  guard(String.prototype, ["replace", "replaceAll", "split", "indexOf", "lastIndexOf", "includes",
    "startsWith", "endsWith", "padStart", "padEnd", "normalize", "toUpperCase", "toLowerCase",
    "toLocaleUpperCase", "toLocaleLowerCase", "localeCompare", "concat", "slice", "substring", "substr",
    "trim", "trimStart", "trimEnd", "match", "matchAll", "search"], receiver);
  guard(String.prototype, ["repeat"], (self, args) => lengthOf(self) * (+args[0] || 0));
  guard(String, ["fromCharCode", "fromCodePoint", "raw"], (self, args) => args.length);
  guard(Object.getPrototypeOf(Uint8Array.prototype), ["sort", "fill", "set", "slice", "indexOf", "lastIndexOf",
    "includes", "join", "reverse", "copyWithin", "toSorted", "toReversed", "with"], receiver);
  guard(Object, ["keys", "values", "entries", "assign", "getOwnPropertyNames", "fromEntries"], () => 0);
  // A buffer's bytes are outside QuickJS's memory limit (its allocator grows the host's memory for them): a loop
  // of new Uint8Array(1 << 20) took 2 GB in 8 s between two asks. A large one, and every 64th, asks first: the
  // host then sees its memory grow past the program's limit.
  const bytesOf = (length, each) => (typeof length === "number" ? length : lengthOf(length)) * each;
  for (const name of ["ArrayBuffer", "SharedArrayBuffer", "Uint8Array", "Int8Array", "Uint8ClampedArray",
    "Uint16Array", "Int16Array", "Uint32Array", "Int32Array", "Float16Array", "Float32Array", "Float64Array",
    "BigUint64Array", "BigInt64Array"]) {
    const native = globalThis[name];
    if (typeof native !== "function") continue;
    const each = native.BYTES_PER_ELEMENT ?? 1;
    const guarded = new Proxy(native, {
      construct(target, args, newTarget) {
        ask(bytesOf(args[0], each));
        return Reflect.construct(target, args, newTarget === guarded ? target : newTarget);
      },
    });
    define(globalThis, name, { ...describe(globalThis, name), value: guarded });
    define(native.prototype, "constructor", { ...describe(native.prototype, "constructor"), value: guarded });
  }
  // A spread of a built-in iterable ([...list]) takes its elements natively, with no step counted: one
  // spread of 200,000 elements, 10,000 times, before the first ask. A next() of the sandbox's own is a call
  // QuickJS counts, for each element.
  const none = [];
  for (const iterator of [[].values(), new Map().values(), new Set().values(), ""[Symbol.iterator]()]) {
    const prototype = Object.getPrototypeOf(iterator);
    const descriptor = describe(prototype, "next");
    const native = descriptor.value;
    define(prototype, "next", { ...descriptor, value: { next() { return apply(native, this, none); } }.next });
  }
})`;

/**
 * Wraps the built-ins of `context` whose work grows with their input. Throws when the sandbox cannot (out
 * of memory already): the caller disposes the context.
 *
 * @param context A fresh context, before the program runs.
 * @param check Throws when a limit has passed (the program then stops at QuickJS's next interrupt).
 */
export function guardNatives(context: QuickJSContext, check: () => void): void {
  const host = context.newFunction("check", () => check());
  try {
    const guards = context.unwrapResult(context.evalCode(GUARDS, "guards.js"));
    try {
      context.unwrapResult(context.callFunction(guards, context.undefined, host)).dispose();
    } finally {
      guards.dispose();
    }
  } finally {
    host.dispose();
  }
}
