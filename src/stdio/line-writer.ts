/**
 * Writes whole lines to the output, in order: one `write` per message and its newline (MCP 2025-11-25,
 * Transports: stdio: "Messages ... MUST NOT contain embedded newlines"), so answers never interleave. A
 * failed write (the reader closed the pipe) marks the output broken once; later lines are dropped. The
 * bytes not yet written are counted: {@link LineWriter.room} waits while a reader that stopped reading
 * is over the bound (no more requests are read), {@link LineWriter.drained} until it took them all.
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
  readonly #maxQueuedBytes: number;
  /** Bytes handed to `write` whose write has not settled. */
  #queued = 0;
  /** What settles when the queued bytes fall to a bound (the room's, or 0) or the output breaks: one per bound. */
  readonly #waiting = new Map<number, { promise: Promise<void>; wake: () => void }>();

  /**
   * Creates a writer.
   *
   * @param write Writes bytes to the output.
   * @param onBroken Called once when a write fails.
   * @param maxQueuedBytes The bytes written but not yet taken by the reader past which {@link room} waits.
   */
  constructor(write: WriteBytes, onBroken: (error: unknown) => void, maxQueuedBytes: number = 8 * 1024 * 1024) {
    this.#write = write;
    this.#onBroken = onBroken;
    this.#maxQueuedBytes = maxQueuedBytes;
  }

  /**
   * Waits until the bytes not yet written are within the bound (at once when they are, or the output broke).
   *
   * @returns When there is room.
   */
  room(): Promise<void> | undefined {
    return this.#within(this.#maxQueuedBytes);
  }

  /**
   * Waits until the reader took every byte handed over so far (at once when it did, or the output broke).
   *
   * @returns When it did.
   */
  drained(): Promise<void> | undefined {
    return this.#within(0);
  }

  #within(bytes: number): Promise<void> | undefined {
    if (this.#queued <= bytes || this.#broken) return undefined;
    let waiting = this.#waiting.get(bytes);
    if (waiting === undefined) {
      let wake!: () => void;
      const promise = new Promise<void>((resolve) => wake = resolve);
      this.#waiting.set(bytes, waiting = { promise, wake });
    }
    return waiting.promise;
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
    const bytes = encoder.encode(message + "\n");
    try {
      written = this.#write(bytes);
    } catch (error) {
      return this.#fail(error);
    }
    if (written === undefined) return;
    this.#queued += bytes.byteLength;
    this.#last = written.then(() => this.#taken(bytes.byteLength), (error) => {
      this.#taken(bytes.byteLength);
      this.#fail(error);
    });
  }

  /**
   * Waits until every line sent so far was handed to the output.
   *
   * @returns When they were.
   */
  flush(): Promise<void> {
    return this.#last;
  }

  #taken(bytes: number): void {
    this.#queued -= bytes;
    if (this.#waiting.size > 0) this.#wake(this.#queued);
  }

  /** Wakes who waits for the queue to fall to `queued` bytes or to more (0 wakes everyone: the output broke). */
  #wake(queued: number): void {
    for (const [bytes, { wake }] of this.#waiting) {
      if (bytes < queued) continue;
      this.#waiting.delete(bytes);
      wake();
    }
  }

  #fail(error: unknown): void {
    if (this.#broken) return;
    this.#broken = true;
    this.#wake(0);
    this.#onBroken(error);
  }
}
