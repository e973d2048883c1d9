/**
 * The server's `calls` budget (`limits`) on a connection (stdio, a WebSocket): each request the client
 * sends takes a call before it runs, and gives it back when its response is written (or the connection
 * ends). A request past the budget is answered at once with a JSON-RPC error -32029 (`rate_limited`,
 * `data.retryAfterMs`, `data.processed: false`), and runs nothing.
 *
 * @module
 */
import { budgeting } from "../core/mod.ts";
import type { MessageOut } from "./message-out.ts";

type Budgets = budgeting.Budgets;
type BudgetRefusal = budgeting.BudgetRefusal;

/** How every response begins (`src/bindings/jsonrpc.ts` writes the members in this order). */
const RESPONSE_HEAD = '{"jsonrpc":"2.0","id":';

/** The calls a connection's client has running, counted in the server's budgets. */
export class CallsInFlight implements MessageOut {
  readonly #out: MessageOut;
  readonly #budgets: Budgets;
  readonly #caller: string;
  /** The running requests, by their id as it is serialised (a response names it the same way). */
  readonly #running = new Set<string>();

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
    if (refusal === undefined) this.#running.add(key);
    return refusal;
  }

  send(message: string): void {
    if (this.#running.size > 0 && message.startsWith(RESPONSE_HEAD)) this.#answered(message);
    this.#out.send(message);
  }

  flush(): Promise<void> {
    return this.#out.flush();
  }

  /** Gives back every call still counted: the connection ended. */
  end(): void {
    for (const _ of this.#running) this.#budgets.give("calls", 1, this.#caller);
    this.#running.clear();
  }

  #answered(message: string): void {
    // The id ends at the first `,"` (inside a string id a quote is escaped); a response follows with its
    // result or error, a request to the client with its method.
    const end = message.indexOf(',"', RESPONSE_HEAD.length);
    if (end < 0 || message.startsWith('"method"', end + 1)) return;
    if (this.#running.delete(message.slice(RESPONSE_HEAD.length, end))) {
      this.#budgets.give("calls", 1, this.#caller);
    }
  }
}
