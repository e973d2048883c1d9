/**
 * Splits a byte stream into lines for newline-delimited JSON-RPC (MCP 2025-11-25, Transports: stdio:
 * "Messages are delimited by newlines"). A line may arrive in many reads, and one read may hold many
 * lines; `\r\n` endings lose their `\r`. A line longer than the limit is not buffered: its bytes are
 * dropped up to the next newline, and it is reported once, so one bad message costs no memory and the
 * messages after it still arrive.
 *
 * @module
 */
import { concatBytes } from "./concat-bytes.ts";

/** What a line turned out to be: its bytes, or the report that it was too long. */
export type Line = Uint8Array | typeof OVERSIZE;

/** Stands for a line that exceeded the limit (its bytes were dropped). */
export const OVERSIZE: unique symbol = Symbol("oversize line");

const LF = 0x0a;
const CR = 0x0d;

/** Splits chunks into lines, keeping at most `maxLineBytes` of an unfinished line. */
export class LineSplitter {
  readonly #max: number;
  #parts: Uint8Array[] = [];
  #length = 0;
  #discarding = false;

  /**
   * Creates a splitter.
   *
   * @param maxLineBytes The longest line accepted, in bytes (without its newline).
   */
  constructor(maxLineBytes: number) {
    this.#max = maxLineBytes;
  }

  /**
   * Takes the next chunk and returns the lines it completed (empty lines are skipped).
   *
   * @param chunk The bytes read.
   * @returns The complete lines, in order.
   */
  push(chunk: Uint8Array): Line[] {
    const lines: Line[] = [];
    let start = 0;
    for (let at = chunk.indexOf(LF); at !== -1; at = chunk.indexOf(LF, start)) {
      this.#take(chunk.subarray(start, at));
      const line = this.#end();
      if (line !== undefined) lines.push(line);
      start = at + 1;
    }
    if (start < chunk.length) this.#take(chunk.subarray(start));
    return lines;
  }

  /**
   * Ends the input: an unfinished last line counts as a line (a writer may omit the final newline).
   *
   * @returns The last line, if any.
   */
  finish(): Line | undefined {
    return this.#end();
  }

  /** Whether the unfinished line already passed the limit (it is being dropped up to its newline). */
  get overflowing(): boolean {
    return this.#discarding;
  }

  #take(bytes: Uint8Array): void {
    if (this.#discarding || bytes.length === 0) return;
    if (this.#length + bytes.length > this.#max + 1) { // +1: a `\r` before the newline is not content
      this.#discarding = true;
      this.#parts = [];
      this.#length = 0;
      return;
    }
    this.#parts.push(bytes.slice()); // the reader may reuse its buffer
    this.#length += bytes.length;
  }

  #end(): Line | undefined {
    if (this.#discarding) {
      this.#discarding = false;
      return OVERSIZE;
    }
    const parts = this.#parts;
    if (parts.length === 0) return undefined;
    let line = parts.length === 1 ? parts[0] : concatBytes(parts, this.#length);
    this.#parts = [];
    this.#length = 0;
    if (line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
    if (line.length > this.#max) return OVERSIZE;
    return isBlank(line) ? undefined : line;
  }
}

/** Blank lines (spaces, tabs) carry no message; they are skipped rather than answered as parse errors. */
function isBlank(line: Uint8Array): boolean {
  for (const byte of line) if (byte !== 0x20 && byte !== 0x09 && byte !== CR) return false;
  return true;
}
