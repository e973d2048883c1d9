/**
 * The push streams (`events/stream`, SEP-3415 "Push") open on one server: their budget, per server and per caller
 * (push streams are exempt from the request budgets, so they keep one of their own), and the wake-up an emit on
 * this instance gives the streams of its event, so that they read the log at once rather than at their next poll.
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";

/** ChatGPT's ResourceExhausted (the router renumbers it SEP-3415's -32025 for a client that declared the extension). */
const EXHAUSTED = -32013;

/** The streams of one server: counted, and waiting for their events. */
export class OpenStreams {
  readonly #max: number;
  readonly #perCaller: number;
  #open = 0;
  readonly #byCaller = new Map<string, number>();
  /** The wake-ups of the streams waiting on each event (by its own name). */
  readonly #waiting = new Map<string, Set<() => void>>();

  /**
   * @param max The most streams open at once.
   * @param perCaller The most one caller holds open at once.
   */
  constructor(max: number, perCaller: number) {
    this.#max = max;
    this.#perCaller = perCaller;
  }

  /** How many are open now. */
  get open(): number {
    return this.#open;
  }

  /**
   * Opens one for a caller, or refuses it with ResourceExhausted.
   *
   * @param caller Who holds it.
   * @returns Closes it (once).
   * @throws {ProtocolError} -32013 past the server's budget or the caller's.
   */
  admit(caller: string): () => void {
    const held = this.#byCaller.get(caller) ?? 0;
    if (this.#open >= this.#max || held >= this.#perCaller) {
      const which = this.#open >= this.#max ? `events.maxStreams, ${this.#max}` : `per caller, ${this.#perCaller}`;
      throw new ProtocolError(EXHAUSTED, `Resource exhausted: too many push streams open (${which})`);
    }
    this.#open++;
    this.#byCaller.set(caller, held + 1);
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      this.#open--;
      const left = this.#byCaller.get(caller)! - 1;
      if (left === 0) this.#byCaller.delete(caller);
      else this.#byCaller.set(caller, left);
    };
  }

  /**
   * Waits until an occurrence of the event is emitted on this instance, `ms` pass, or the signal aborts.
   *
   * @param name The event's own name.
   * @param ms The longest wait.
   * @param signal The stream's signal.
   */
  wait(name: string, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let waiting = this.#waiting.get(name);
      if (waiting === undefined) this.#waiting.set(name, waiting = new Set());
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        waiting.delete(done);
        if (waiting.size === 0 && this.#waiting.get(name) === waiting) this.#waiting.delete(name);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waiting.add(done);
      if (signal.aborted) done();
      else signal.addEventListener("abort", done, { once: true });
    });
  }

  /**
   * Wakes the streams waiting on an event: an occurrence of it was appended to the log.
   *
   * @param name The event's own name.
   */
  wake(name: string): void {
    for (const done of [...this.#waiting.get(name) ?? []]) done();
  }
}
