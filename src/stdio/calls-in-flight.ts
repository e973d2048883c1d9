/**
 * The requests a connection's client (stdio, a WebSocket) has running, from their arrival until their
 * response is written (or the connection ends). Each takes a call of the server's `calls` budget
 * (`limits`) and gives it back then; a request past the budget is answered at once with a JSON-RPC error
 * -32029 (`rate_limited`, `data.retryAfterMs`, `data.processed: false`), and runs nothing. The requests
 * are grouped in waves (those taken between two {@link CallsInFlight.nextWave} calls), so that a reader
 * can wait until a burst it started has been answered.
 *
 * @module
 */
import { budgeting } from "../core/mod.ts";
import type { MessageOut } from "./message-out.ts";

type Budgets = budgeting.Budgets;
type BudgetRefusal = budgeting.BudgetRefusal;

/** How every response begins (`src/bindings/jsonrpc.ts` writes the members in this order). */
const RESPONSE_HEAD = '{"jsonrpc":"2.0","id":';

/** Requests taken together: how many are not answered yet, and who waits for them. */
interface Wave {
  running: number;
  answered?: () => void;
}

/** The calls a connection's client has running, counted in the server's budgets. */
export class CallsInFlight implements MessageOut {
  readonly #out: MessageOut;
  readonly #budgets: Budgets;
  readonly #caller: string;
  /** The running requests, by their id as it is serialised (a response names it the same way), and their wave. */
  readonly #running = new Map<string, Wave>();
  /** The wave requests join as they are taken. */
  #wave: Wave = { running: 0 };

  /**
   * Counts the calls of one connection.
   *
   * @param out Where the connection's messages go.
   * @param budgets The server's budgets.
   * @param caller Who the connection's client is (its authenticated subject, its address), if known.
   */
  constructor(out: MessageOut, budgets: Budgets, caller: string | undefined) {
    this.#out = out;
    this.#budgets = budgets;
    this.#caller = caller ?? budgeting.ANONYMOUS;
  }

  /**
   * Takes a call for a request the client sent (a notification or a response takes none).
   *
   * @param message The parsed message.
   * @returns The refusal to answer it with, when the budget is full.
   */
  admit(message: unknown): BudgetRefusal | undefined {
    const { id, method } = (message ?? {}) as { id?: unknown; method?: unknown };
    if (typeof method !== "string" || (typeof id !== "string" && typeof id !== "number")) return undefined;
    const key = JSON.stringify(id);
    if (this.#running.has(key)) return undefined; // the same id twice: its answer is refused by the protocol
    const refusal = this.#budgets.take("calls", 1, this.#caller);
    if (refusal === undefined) {
      this.#running.set(key, this.#wave);
      this.#wave.running++;
    }
    return refusal;
  }

  /**
   * Ends the current wave: the requests taken from now on are the next one's.
   *
   * @returns When every request of the wave that ends has been answered (or the connection ended), or
   *   `undefined` when each already was.
   */
  nextWave(): Promise<void> | undefined {
    const wave = this.#wave;
    this.#wave = { running: 0 };
    return wave.running === 0 ? undefined : new Promise((resolve) => wave.answered = resolve);
  }

  send(message: string): void {
    if (this.#running.size > 0 && message.startsWith(RESPONSE_HEAD)) this.#answered(message);
    this.#out.send(message);
  }

  flush(): Promise<void> {
    return this.#out.flush();
  }

  /**
   * Gives back a running request's call before its answer: it is a long-lived stream that keeps a budget of its own
   * (SEP-3415 "Push": "server SDKs MUST exempt events/stream from any general cap on concurrent requests"). Its wave
   * no longer waits for it either.
   *
   * @param id The request's id.
   */
  exempt(id: string | number | null): void {
    const key = JSON.stringify(id);
    const wave = this.#running.get(key);
    if (wave === undefined) return;
    this.#running.delete(key);
    this.#budgets.give("calls", 1, this.#caller);
    settle(wave);
  }

  /** Gives back every call still counted: the connection ended. */
  end(): void {
    for (const wave of this.#running.values()) {
      this.#budgets.give("calls", 1, this.#caller);
      settle(wave);
    }
    this.#running.clear();
  }

  #answered(message: string): void {
    // The id ends at the first `,"` (inside a string id a quote is escaped); a response follows with its
    // result or error, a request to the client with its method.
    const end = message.indexOf(',"', RESPONSE_HEAD.length);
    if (end < 0 || message.startsWith('"method"', end + 1)) return;
    const key = message.slice(RESPONSE_HEAD.length, end);
    const wave = this.#running.get(key);
    if (wave === undefined) return;
    this.#running.delete(key);
    this.#budgets.give("calls", 1, this.#caller);
    settle(wave);
  }
}

/** One request of the wave was answered; the last wakes whoever waits. */
function settle(wave: Wave): void {
  if (--wave.running === 0) wave.answered?.();
}
