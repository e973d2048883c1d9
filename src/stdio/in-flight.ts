/**
 * The requests of one stdio connection that are still running, by id: what `notifications/cancelled`
 * aborts (MCP 2025-11-25, Cancellation; MCP 2026-07-28 keeps it on stdio), and what shutdown aborts
 * and waits for.
 *
 * @module
 */
import type { JsonRpcId } from "../bindings/jsonrpc.ts";

/** One running request. */
export class RunningRequest {
  /** Aborts the request's signal. */
  readonly controller: AbortController = new AbortController();
  /** Whether the client cancelled it (its answer is then not sent). */
  cancelled = false;
}

/** The running requests of a connection. */
export class InFlight {
  readonly #byId = new Map<string, RunningRequest>();
  readonly #settling = new Set<Promise<void>>();

  /**
   * Starts tracking a request.
   *
   * @param id Its id.
   * @returns Its handle.
   */
  start(id: JsonRpcId): RunningRequest {
    const running = new RunningRequest();
    this.#byId.set(keyOf(id), running);
    return running;
  }

  /**
   * Tracks the work of a request until it settles.
   *
   * @param id Its id.
   * @param running Its handle.
   * @param work What it does.
   */
  track(id: JsonRpcId, running: RunningRequest, work: Promise<void>): void {
    const done = work.finally(() => {
      this.#settling.delete(done);
      if (this.#byId.get(keyOf(id)) === running) this.#byId.delete(keyOf(id));
    });
    this.#settling.add(done);
  }

  /**
   * Cancels a request at the client's word.
   *
   * @param id The request id the notification names.
   * @param reason Its reason, if any.
   */
  cancel(id: unknown, reason: unknown): void {
    if (typeof id !== "string" && typeof id !== "number") return;
    const running = this.#byId.get(keyOf(id));
    if (running === undefined) return;
    running.cancelled = true;
    running.controller.abort(new Error(typeof reason === "string" ? reason : "cancelled by the client"));
  }

  /**
   * Aborts every running request.
   *
   * @param reason Why.
   */
  abortAll(reason: Error): void {
    for (const running of this.#byId.values()) running.controller.abort(reason);
  }

  /**
   * Waits until every tracked request settled.
   *
   * @returns When they did.
   */
  async settled(): Promise<void> {
    while (this.#settling.size > 0) await Promise.allSettled([...this.#settling]);
  }
}

/** Ids 1 and "1" are different requests. */
function keyOf(id: JsonRpcId): string {
  return typeof id === "number" ? `n${id}` : `s${id}`;
}
