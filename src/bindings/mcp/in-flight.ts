/**
 * The calls a 2025-era client may cancel with `notifications/cancelled`. A request id alone is the
 * client's choice and not unique across clients, so a call is only tracked (and only cancellable)
 * when it carries the `Mcp-Session-Id` that `initialize` issued. The table is in-process: the
 * notification must reach the instance running the call. (On 2026-07-28, closing the stream is the
 * cancellation, and that works everywhere.)
 *
 * @module
 */
import type { JsonRpcId } from "../jsonrpc.ts";

/** A tracked call. */
export interface TrackedCall {
  /** Aborted when the client cancels or goes away. */
  readonly signal: AbortSignal;
  /** Stops tracking the call. */
  readonly done: () => void;
}

/** The table of cancellable calls. */
export class InFlightCalls {
  readonly #calls = new Map<string, AbortController>();

  /**
   * Tracks a call.
   *
   * @param session The session id.
   * @param id The request id.
   * @param signal The request's own signal (client disconnects).
   * @returns The combined signal and the function that ends tracking.
   */
  track(session: string, id: JsonRpcId, signal: AbortSignal): TrackedCall {
    const key = keyOf(session, id);
    const controller = new AbortController();
    this.#calls.set(key, controller);
    return {
      signal: AbortSignal.any([signal, controller.signal]),
      done: () => {
        if (this.#calls.get(key) === controller) this.#calls.delete(key);
      },
    };
  }

  /**
   * Cancels a call.
   *
   * @param session The session id.
   * @param id The request id.
   * @param reason The client's reason, if any.
   * @returns Whether a call was cancelled.
   */
  cancel(session: string, id: JsonRpcId, reason: unknown): boolean {
    const key = keyOf(session, id);
    const controller = this.#calls.get(key);
    if (controller === undefined) return false;
    this.#calls.delete(key);
    controller.abort(
      new Error(typeof reason === "string" ? `cancelled by the client: ${reason}` : "cancelled by the client"),
    );
    return true;
  }
}

function keyOf(session: string, id: JsonRpcId): string {
  return `${session}\u0000${typeof id}:${id}`;
}
