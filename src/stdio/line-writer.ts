/**
 * Writes whole lines to the output, in order. Each message is one `write` of its text and newline
 * (MCP 2025-11-25, Transports: stdio: "Messages ... MUST NOT contain embedded newlines"; JSON text
 * never does), so concurrent answers never interleave. A failed write (the reader closed the pipe)
 * marks the output broken once; later lines are dropped.
 *
 * @module
 */
import type { MessageOut } from "./message-out.ts";

/** Where lines go: a function that writes bytes and settles when the bytes were handed over. */
export type WriteBytes = (bytes: Uint8Array) => Promise<void> | void;

const encoder = new TextEncoder();

/** Writes JSON-RPC messages as lines. */
export class LineWriter implements MessageOut {
  readonly #write: WriteBytes;
  readonly #onBroken: (error: unknown) => void;
  #last: Promise<void> = Promise.resolve();
  #broken = false;

  /**
   * Creates a writer.
   *
   * @param write Writes bytes to the output.
   * @param onBroken Called once when a write fails.
   */
  constructor(write: WriteBytes, onBroken: (error: unknown) => void) {
    this.#write = write;
    this.#onBroken = onBroken;
  }

  /** Whether a write failed (nothing more reaches the reader). */
  get broken(): boolean {
    return this.#broken;
  }

  /**
   * Sends one message.
   *
   * @param message The serialised JSON-RPC message, without a newline.
   */
  send(message: string): void {
    if (this.#broken) return;
    // The sink queues writes in call order (a WritableStream writer, Node's stream.write): hand each
    // line over at once rather than waiting for the previous one, and keep the last for flush().
    let written: Promise<void> | void;
    try {
      written = this.#write(encoder.encode(message + "\n"));
    } catch (error) {
      return this.#fail(error);
    }
    if (written !== undefined) this.#last = written.catch((error) => this.#fail(error));
  }

  /**
   * Waits until every line sent so far was handed to the output.
   *
   * @returns When they were.
   */
  flush(): Promise<void> {
    return this.#last;
  }

  #fail(error: unknown): void {
    if (this.#broken) return;
    this.#broken = true;
    this.#onBroken(error);
  }
}
