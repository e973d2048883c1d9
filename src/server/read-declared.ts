/**
 * A large request body of a declared length, read into one buffer of that length in small steps, instead of
 * the runtime's own `text()`: on `Deno.serve` that collects the body natively in buffers it grows and copies,
 * which the process then keeps (bench/budgets-rss.ts: 60 concurrent 4 MiB calls grew Deno by ~35 MB more).
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";

/** The smallest declared body read in steps; a smaller one is read whole by the runtime (one read). */
export const STEPPED_FROM_BYTES = 64 * 1024;

/**
 * The most one step asks of the body. Small steps keep the listener's own read buffers small: with 16 KiB,
 * `Deno.serve` peaked lower for 60 concurrent 4 MiB calls than with the whole rest asked at once.
 */
export const STEP_BYTES = 16 * 1024;

/** A body being read: its bytes once all in, and how to stop reading it (at a deadline). */
export interface DeclaredRead {
  /** The body's bytes, exactly its declared length. */
  readonly bytes: Promise<Uint8Array>;
  /** Stops the read: the rest of the body is not received, and `bytes` rejects. */
  stop(): void;
}

/**
 * Starts reading a body of `length` declared bytes into one buffer, where its stream is a byte stream (the
 * BYOB reader of WHATWG Streams §4.6 reads into the caller's buffer); `undefined` for any other body (a plain
 * stream, none), which the runtime's own read takes.
 *
 * @param body The request's body.
 * @param length Its declared `Content-Length`.
 * @returns The read, or `undefined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readDeclared } from "./read-declared.ts";
 * const body = new ReadableStream({ type: "bytes", start(c) { c.enqueue(new Uint8Array([1, 2, 3])); c.close(); } });
 * assert.deepEqual(await readDeclared(body, 3)?.bytes, new Uint8Array([1, 2, 3]));
 * ```
 */
export function readDeclared(body: ReadableStream<Uint8Array> | null, length: number): DeclaredRead | undefined {
  if (body === null) return undefined;
  let reader: ReadableStreamBYOBReader;
  try {
    reader = body.getReader({ mode: "byob" });
  } catch {
    return undefined; // not a byte stream (refused before it is locked: WHATWG Streams §4.6.4)
  }
  return { bytes: fill(reader, length), stop: () => void reader.cancel().catch(() => {}) };
}

/** Reads `length` bytes into one buffer, then checks that the body ends there. */
async function fill(reader: ReadableStreamBYOBReader, length: number): Promise<Uint8Array> {
  let buffer = new ArrayBuffer(length);
  let at = 0;
  try {
    while (at < length) {
      const { done, value } = await reader.read(new Uint8Array(buffer, at, Math.min(STEP_BYTES, length - at)));
      if (done || value === undefined) throw mismatch("shorter");
      buffer = value.buffer as ArrayBuffer; // the same memory, handed back
      at += value.byteLength;
    }
    // The end of the body (at once where the listener framed it by its Content-Length).
    const { done } = await reader.read(new Uint8Array(1));
    if (!done) throw mismatch("longer");
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error;
  }
  return new Uint8Array(buffer);
}

/** The refusal of a body whose length is not the one it declared (RFC 9110 §8.6). */
function mismatch(how: "shorter" | "longer"): ProtocolError {
  return new ProtocolError("parse_error", `Parse error: the body is ${how} than its Content-Length`);
}
