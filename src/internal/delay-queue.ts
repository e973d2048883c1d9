/**
 * Many timeouts of one fixed delay on one timer. A per-request `setTimeout` costs microseconds on some
 * runtimes (and a timer object each); since every entry waits the same delay, deadlines arrive in
 * insertion order and one timer, re-armed for the oldest live entry, serves them all.
 *
 * @module
 */

interface Entry {
  readonly at: number;
  fire: (() => void) | undefined;
}

/** Lets a timer not keep the process alive (Bun, Node: `unref()`; Deno: `Deno.unrefTimer`). */
function unref(timer: ReturnType<typeof setTimeout>): void {
  if (typeof timer === "object" && timer !== null && "unref" in timer) {
    (timer as { unref(): void }).unref();
    return;
  }
  const deno = (globalThis as { Deno?: { unrefTimer?(id: number): void } }).Deno;
  deno?.unrefTimer?.(timer as unknown as number);
}

/**
 * Runs callbacks a fixed delay after they were added, unless cancelled first, sharing one timer.
 * The timer does not keep the process alive; a cancelled entry costs nothing when the timer fires.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DelayQueue } from "./delay-queue.ts";
 *
 * const queue = new DelayQueue(10);
 * const fired: string[] = [];
 * queue.add(() => fired.push("a"));
 * const cancel = queue.add(() => fired.push("b"));
 * cancel();
 * await new Promise((done) => setTimeout(done, 40));
 * assert.deepEqual(fired, ["a"]);
 * ```
 */
export class DelayQueue {
  readonly #delayMs: number;
  #entries: Entry[] = [];
  #head = 0;
  #live = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #ticking = false;

  /**
   * Creates a queue.
   *
   * @param delayMs The delay of every entry, in milliseconds.
   */
  constructor(delayMs: number) {
    this.#delayMs = delayMs;
  }

  /** How many entries are waiting (not yet fired nor cancelled). */
  get size(): number {
    return this.#live;
  }

  /**
   * Schedules `fire` after the queue's delay.
   *
   * @param fire What to run.
   * @returns Cancels it; calling it after it ran, or twice, does nothing.
   */
  add(fire: () => void): () => void {
    const entry: Entry = { at: performance.now() + this.#delayMs, fire };
    this.#entries.push(entry);
    this.#live++;
    if (this.#timer === undefined && !this.#ticking) this.#arm(this.#delayMs);
    return () => {
      if (entry.fire === undefined) return;
      entry.fire = undefined;
      if (--this.#live === 0) {
        // Nothing waits: drop the dead entries; the armed timer finds none and stops.
        this.#entries = [];
        this.#head = 0;
        return;
      }
      const dead = this.#entries.length - this.#head - this.#live;
      if (dead > 1024 && dead > this.#live) this.#compact(); // amortised: each pass drops over half
    };
  }

  #arm(ms: number): void {
    const timer = setTimeout(() => this.#tick(), Math.max(0, ms));
    unref(timer);
    this.#timer = timer;
  }

  #tick(): void {
    this.#timer = undefined;
    this.#ticking = true;
    const now = performance.now();
    const due: Entry[] = [];
    const entries = this.#entries;
    let head = this.#head;
    for (; head < entries.length; head++) {
      const entry = entries[head];
      if (entry.fire === undefined) continue;
      if (entry.at > now) break;
      due.push(entry);
    }
    this.#head = head;
    for (const entry of due) {
      const fire = entry.fire;
      if (fire === undefined) continue; // an earlier callback cancelled it
      entry.fire = undefined;
      this.#live--;
      fire();
    }
    this.#ticking = false;
    if (this.#live === 0) {
      this.#entries = [];
      this.#head = 0;
      return;
    }
    this.#compact();
    this.#arm(this.#entries[0].at - performance.now());
  }

  /** Drops fired and cancelled entries. */
  #compact(): void {
    this.#entries = this.#entries.slice(this.#head).filter((entry) => entry.fire !== undefined);
    this.#head = 0;
  }
}
