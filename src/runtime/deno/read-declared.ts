/**
 * `Deno.serve`'s large request bodies, read into one buffer of their declared length in 16 KiB steps instead of by
 * the runtime's `text()`, which collects a body natively in buffers it grows and copies, that the process keeps
 * (bench/body-memory.ts: 60 concurrent 4 MiB calls, 3 times, grew Deno ~50 MB more). Lent to each
 * request by the listener.
 *
 * @module
 */
import type { DeclaredRead } from "../body-bound.ts";

/** The smallest declared body read in steps; a smaller one is read whole by the runtime (one read). */
export const STEPPED_FROM_BYTES = 64 * 1024;

/**
 * The most one step asks of the body. Small steps keep the listener's own read buffers small: with 16 KiB,
 * `Deno.serve` peaked lower for 60 concurrent 4 MiB calls than with the whole rest asked at once.
 */
export const STEP_BYTES = 16 * 1024;

/**
 * Starts reading a request's body of `length` declared bytes into one buffer, where it is large enough to matter
 * and its stream is a byte stream (the BYOB reader of WHATWG Streams §4.6 reads into the caller's buffer); `undefined`
 * otherwise, for the runtime's own read.
 *
 * @param request The request.
 * @param length Its declared `Content-Length`.
 * @returns The read, or `undefined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readDeclared, STEPPED_FROM_BYTES } from "./read-declared.ts";
 * const bytes = new Uint8Array(STEPPED_FROM_BYTES).fill(0x20);
 * const body = new ReadableStream({ type: "bytes", start(c) { c.enqueue(bytes.slice()); c.close(); } });
 * const request = new Request("http://localhost/", { method: "POST", body, duplex: "half" } as RequestInit);
 * assert.deepEqual(await readDeclared(request, bytes.byteLength)?.bytes, bytes);
 * ```
 */
export function readDeclared(request: Request, length: number): DeclaredRead | undefined {
  if (length < STEPPED_FROM_BYTES || request.body === null) return undefined;
  let reader: ReadableStreamBYOBReader;
  try {
    reader = request.body.getReader({ mode: "byob" });
  } catch {
    return undefined; // not a byte stream (refused before it is locked: WHATWG Streams §4.6.4)
  }
  return { bytes: fill(reader, length), body: reader };
}

/** Reads `length` bytes into one buffer, then the body's end (at once: `Deno.serve` frames it by its length). */
async function fill(reader: ReadableStreamBYOBReader, length: number): Promise<Uint8Array> {
  let buffer = new ArrayBuffer(length);
  let at = 0;
  try {
    while (at < length) {
      const { done, value } = await reader.read(new Uint8Array(buffer, at, Math.min(STEP_BYTES, length - at)));
      if (done || value === undefined) throw new RangeError("The request body ended before its Content-Length");
      buffer = value.buffer as ArrayBuffer; // the same memory, handed back
      at += value.byteLength;
    }
    const { done } = await reader.read(new Uint8Array(1));
    if (!done) throw new RangeError("The request body is longer than its Content-Length");
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error;
  }
  return new Uint8Array(buffer);
}
