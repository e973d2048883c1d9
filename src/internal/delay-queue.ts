/**
 * Many timeouts of one fixed delay on one timer. A per-request `setTimeout` costs microseconds on some
 * runtimes (and a timer object each); since every entry waits the same delay, deadlines arrive in
 * insertion order and one timer, re-armed for the oldest live entry, serves them all.
 *
 * @module
 */
import { unrefTimer } from "./unref-timer.ts";

/** What waits in a {@link DelayQueue}: its `due()` runs when the delay is over. */
export interface Due {
  /** Runs once the delay is over, unless cancelled first. */
  due(): void;
}

/** A place in a {@link DelayQueue}. */
export interface Waiting {
  /** Takes the entry out; does nothing once it ran or was cancelled. */
  cancel(): void;
}

class Entry implements Waiting {
  readonly at: number;
  target: Due | undefined;
  readonly #queue: DelayQueue;

  constructor(at: number, target: Due, queue: DelayQueue) {
    this.at = at;
    this.target = target;
    this.#queue = queue;
  }

  cancel(): void {
    if (this.target === undefined) return;
    this.target = undefined;
    this.#queue.cancelled();
  }
}

/**
 * Runs `due()` of each entry a fixed delay after it was added, unless cancelled first, sharing one
 * timer. The timer does not keep the process alive; a cancelled entry costs nothing when it fires.
 * An entry is one small object (no closures), since one is added per request.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DelayQueue } from "./delay-queue.ts";
 *
 * const queue = new DelayQueue(10);
 * const fired: string[] = [];
 * queue.add({ due: () => fired.push("a") });
 * const waiting = queue.add({ due: () => fired.push("b") });
 * waiting.cancel();
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
   * Schedules `target.due()` after the queue's delay.
   *
   * @param target What to run.
   * @returns Its place, to cancel it.
   */
  add(target: Due): Waiting {
    const entry = new Entry(performance.now() + this.#delayMs, target, this);
    this.#entries.push(entry);
    this.#live++;
    if (this.#timer === undefined && !this.#ticking) this.#arm(this.#delayMs);
    return entry;
  }

  /** Counts an entry cancelled (called by the entry). */
  cancelled(): void {
    if (--this.#live === 0) {
      // Nothing waits: drop the dead entries; the armed timer finds none and stops.
      this.#entries = [];
      this.#head = 0;
      return;
    }
    const dead = this.#entries.length - this.#head - this.#live;
    if (dead > 1024 && dead > this.#live) this.#compact(); // amortised: each pass drops over half
  }

  #arm(ms: number): void {
    const timer = setTimeout(() => this.#tick(), Math.max(0, ms));
    unrefTimer(timer);
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
      if (entry.target === undefined) continue;
      if (entry.at > now) break;
      due.push(entry);
    }
    this.#head = head;
    for (const entry of due) {
      const target = entry.target;
      if (target === undefined) continue; // an earlier callback cancelled it
      entry.target = undefined;
      this.#live--;
      target.due();
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
    this.#entries = this.#entries.slice(this.#head).filter((entry) => entry.target !== undefined);
    this.#head = 0;
  }
}
