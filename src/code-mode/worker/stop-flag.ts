/**
 * The host's stop, shared with a program's thread: one `Int32Array` on a `SharedArrayBuffer`, raised by the host
 * before it terminates the thread. Deno's and Bun's `terminate()` do not stop a thread computing in WebAssembly
 * (Bun's takes at its next call out to JavaScript, Deno's when its event loop turns), so the sandbox reads the flag
 * itself, with `Atomics.load` (ECMA-262 §25.4), at each interrupt, and the program ends where it stands.
 *
 * @module
 */

/** A fresh flag, lowered. */
export function stopFlag(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
}

/** Raises `flag`: the thread that holds it stops its program at its next interrupt. */
export function raiseStop(flag: Int32Array): void {
  Atomics.store(flag, 0, 1);
}

/**
 * An `AbortSignal` whose `aborted` reads `flag` (the sandbox reads it at each interrupt): while a program computes,
 * no message, so no abort event, can reach its thread.
 *
 * @param flag The flag the host raises.
 */
export function stopSignal(flag: Int32Array): AbortSignal {
  return Object.defineProperty(new AbortController().signal, "aborted", { get: () => Atomics.load(flag, 0) !== 0 });
}
