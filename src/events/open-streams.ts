/**
 * The push streams (`events/stream`, SEP-3415 "Push") open on one server: their budget, per server and per caller
 * (push streams are exempt from the request budgets, so they keep one of their own), and what wakes a waiting stream:
 * an emit on this instance at once, and for those of other instances sharing the store one read of the log's head
 * per event every `events.streamPollMs`, whoever waits on it (not one per stream).
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";

/** ChatGPT's ResourceExhausted (the router renumbers it SEP-3415's -32025 for a client that declared the extension). */
const EXHAUSTED = -32013;

/** A stream waiting: where it read up to (`<life>.<n>`), and what wakes it. */
type Waiter = { readonly at: string; readonly wake: () => void };

/** The limits of the streams, and how the log's head is read. */
export interface StreamLimits {
  /** The most open at once. */
  readonly max: number;
  /** The most one caller holds open at once. */
  readonly perCaller: number;
  /** How often the head of an event's log is read while a stream waits on it, in ms. */
  readonly pollMs: number;
  /** Reads the head of an event's log (`OccurrenceLog.head`). */
  readonly head: (name: string) => Promise<string>;
}

/** The streams of one server: counted, and waiting for their events. */
export class OpenStreams {
  readonly #limits: StreamLimits;
  #open = 0;
  readonly #byCaller = new Map<string, number>();
  /** The streams waiting on each event (by its own name); an event is polled while it has some. */
  readonly #waiting = new Map<string, Set<Waiter>>();

  /** @param limits The budgets, the poll's interval, and how to read a log's head. */
  constructor(limits: StreamLimits) {
    this.#limits = limits;
  }

  /**
   * Opens one for a caller, or refuses it with ResourceExhausted.
   *
   * @param caller Who holds it (`""`: unknown, bound by the server's budget only, as `limits.perCaller` does).
   * @returns Closes it (once).
   * @throws {ProtocolError} -32013 past the server's budget or the caller's.
   */
  admit(caller: string): () => void {
    const { max, perCaller } = this.#limits;
    const held = this.#byCaller.get(caller) ?? 0;
    if (this.#open >= max || (caller !== "" && held >= perCaller)) {
      const whole = this.#open >= max;
      const which = whole ? `events.maxStreams, ${max}` : `per caller, ${perCaller}`;
      // SEP-3415 "Error Handling": "`data.limit` names it [...], and `data.max` MAY give the ceiling".
      throw new ProtocolError(EXHAUSTED, `Resource exhausted: too many push streams open (${which})`, {
        data: { limit: whole ? "streams" : "streamsPerCaller", max: whole ? max : perCaller },
      });
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
   * Waits until the event's log moves past `at` (an emit here, or its head seen elsewhere), `ms` pass, or the signal
   * aborts.
   *
   * @param name The event's own name.
   * @param at Where the stream read up to (`LogRead.at`).
   * @param ms The longest wait.
   * @param signal The stream's signal.
   */
  wait(name: string, at: string, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let waiting = this.#waiting.get(name);
      if (waiting === undefined) {
        this.#waiting.set(name, waiting = new Set());
        this.#poll(name, waiting);
      }
      const waiter: Waiter = {
        at,
        wake: () => {
          clearTimeout(timer);
          signal.removeEventListener("abort", waiter.wake);
          waiting.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.wake, ms);
      waiting.add(waiter);
      if (signal.aborted) waiter.wake();
      else signal.addEventListener("abort", waiter.wake, { once: true });
    });
  }

  /**
   * Wakes the streams waiting on an event: an occurrence of it was appended to the log here.
   *
   * @param name The event's own name.
   */
  wake(name: string): void {
    for (const waiter of [...this.#waiting.get(name) ?? []]) waiter.wake();
  }

  /** Reads the event's head every `pollMs` while streams wait on it, waking those it moved past; then stops. */
  #poll(name: string, waiting: Set<Waiter>): void {
    const tick = async () => {
      if (waiting.size === 0) {
        this.#waiting.delete(name);
        return;
      }
      let head: string | undefined;
      try {
        head = await this.#limits.head(name);
      } catch { /* the store failing: each stream reads the log, and says so */ }
      for (const waiter of [...waiting]) if (waiter.at !== head) waiter.wake();
      setTimeout(tick, this.#limits.pollMs);
    };
    setTimeout(tick, this.#limits.pollMs);
  }
}
