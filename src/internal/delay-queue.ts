/**
 * Many timeouts of one fixed delay on one timer: every entry waits the same delay, so deadlines arrive in
 * insertion order and one timer, re-armed for the oldest live entry, serves them all (a `setTimeout` per
 * request costs microseconds and an object). Where timers belong to the request that armed them
 * (Cloudflare Workers cancels a request's timers once it has answered), each entry gets its own timer.
 *
 * @module
 */
import { unrefTimer } from "../runtime/unref-timer.ts";
import { TIMERS_PER_REQUEST } from "../runtime/workers/request-timers.ts";

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
  declare readonly at: number;
  declare target: Due | undefined;
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

/** An entry with a timer of its own (where timers belong to requests). */
class OwnTimer implements Waiting {
  #target: Due | undefined;
  readonly #queue: DelayQueue;
  readonly #timer: ReturnType<typeof setTimeout>;

  constructor(ms: number, target: Due, queue: DelayQueue) {
    this.#target = target;
    this.#queue = queue;
    this.#timer = unrefTimer(setTimeout(() => this.#fire(), ms));
  }

  cancel(): void {
    if (this.#target === undefined) return;
    this.#target = undefined;
    clearTimeout(this.#timer);
    this.#queue.cancelled();
  }

  #fire(): void {
    const target = this.#target;
    if (target === undefined) return;
    this.#target = undefined;
    this.#queue.cancelled();
    target.due();
  }
}

/**
 * Runs `due()` of each entry a fixed delay after it was added, unless cancelled first, sharing one
 * timer. The timer does not keep the process alive; a cancelled entry costs nothing when it fires.
 * An entry is one small object (no closures), since one is added per request.
 *
 * Where timers belong to requests ({@link TIMERS_PER_REQUEST}), each entry has its own timer instead.
 * Elsewhere, a shared timer found long past its due time (a host that dropped it without saying so)
 * is re-armed by the next `add`, so one lost timer does not silence the queue for good.
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
  /** When the armed timer should fire (`performance.now()` time). */
  #timerDue = 0;
  #ticking = false;
  readonly #perEntry: boolean;

  /**
   * Creates a queue.
   *
   * @param delayMs The delay of every entry, in milliseconds.
   * @param perEntry Gives each entry its own timer; by default, only where timers belong to requests.
   */
  constructor(delayMs: number, perEntry: boolean = TIMERS_PER_REQUEST) {
    this.#delayMs = delayMs;
    this.#perEntry = perEntry;
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
    this.#live++;
    if (this.#perEntry) return new OwnTimer(this.#delayMs, target, this);
    const now = performance.now();
    const entry = new Entry(now + this.#delayMs, target, this);
    this.#entries.push(entry);
    if (this.#timer === undefined) {
      if (!this.#ticking) this.#arm(this.#delayMs, now);
    } else if (now - this.#timerDue > this.#delayMs) {
      // A whole delay late: the host dropped the timer (or the event loop was blocked that long).
      // Fire now; the tick re-arms for whatever is not due yet.
      clearTimeout(this.#timer);
      this.#arm(0, now);
    }
    return entry;
  }

  /** Counts an entry gone, cancelled or (with its own timer) fired; called by the entry. */
  cancelled(): void {
    if (--this.#live === 0 && !this.#perEntry) {
      // Nothing waits: drop the dead entries; the armed timer finds none and stops.
      this.#entries = [];
      this.#head = 0;
      return;
    }
    const dead = this.#entries.length - this.#head - this.#live;
    if (dead > 1024 && dead > this.#live) this.#compact(); // amortised: each pass drops over half
  }

  #arm(ms: number, now: number): void {
    const delay = Math.max(0, ms);
    const timer = setTimeout(() => this.#tick(), delay);
    unrefTimer(timer);
    this.#timer = timer;
    this.#timerDue = now + delay;
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
    const later = performance.now();
    this.#arm(this.#entries[0].at - later, later);
  }

  /** Drops fired and cancelled entries. */
  #compact(): void {
    this.#entries = this.#entries.slice(this.#head).filter((entry) => entry.target !== undefined);
    this.#head = 0;
  }
}
