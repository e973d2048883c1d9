/**
 * Who hears of jobs' ends: features register with the engine (each once, by its key; several may) to hear the id a
 * caller holds of a job whose tool names an end event, and to see each job's final entry as the result store takes
 * it (task events, `src/events/task-ends.ts`). The engine calls them; no feature is assigned into it.
 *
 * @module
 */
import type { PromiseOutcome } from "../core/call/outcome.ts";
import type { ToolCall } from "../core/call/middleware.ts";
import { canonicalJson } from "../internal/canonical-json.ts";
import { hasEnded, type ResultStore, type StoredResult } from "./result-store.ts";

/** A feature that hears of the id a caller holds of a job whose tool names an end event. */
export type EndListener = (outcome: PromiseOutcome, id: string, call?: ToolCall) => Promise<void>;

/**
 * A feature that sees a job's final entry as the server's result store takes it (in process, on a worker, a
 * cancellation, a lapsed job's end): the first final write of the entry, or that write tried again (an outage took
 * the entry but lost the store's answer). Its own failures are its own to report.
 */
export type FinalListener = (id: string, entry: StoredResult, ttlMs: number) => Promise<void>;

/** The features that hear of a server's jobs' ends, each under the key it registered. */
export class JobEnds {
  /** Who hears of the ids callers hold of jobs whose tools name an end event. */
  readonly #ends = new Map<symbol, EndListener>();
  /** Who sees jobs' final entries as they are written. */
  readonly #finals = new Map<symbol, FinalListener>();

  /**
   * Registers a feature that hears of the ids callers hold.
   *
   * @param key The feature's key.
   * @param listener Hears each id handed over.
   * @returns Whether it was registered (`false`: the key was, already).
   */
  onEnd(key: symbol, listener: EndListener): boolean {
    if (this.#ends.has(key)) return false;
    this.#ends.set(key, listener);
    return true;
  }

  /**
   * Registers a feature that sees each job's final entry.
   *
   * @param key The feature's key.
   * @param listener Sees each final entry written.
   * @returns Whether it was registered (`false`: the key was, already).
   */
  onFinal(key: symbol, listener: FinalListener): boolean {
    if (this.#finals.has(key)) return false;
    this.#finals.set(key, listener);
    return true;
  }

  /** Whether a feature hears of the ids callers hold (a tool naming an end event needs one). */
  get heard(): boolean {
    return this.#ends.size > 0;
  }

  /**
   * Hands the id a caller holds of a job to every feature listening, one after another.
   *
   * @param outcome The call's promise outcome.
   * @param id The id its caller holds (the token, or the task's id).
   * @param call The call, when the id is handed over as it is answered.
   */
  async announce(outcome: PromiseOutcome, id: string, call?: ToolCall): Promise<void> {
    for (const listener of this.#ends.values()) await listener(outcome, id, call);
  }

  /**
   * `results` as the engine writes it: a final entry written (or found written, by its write tried again) is shown to
   * the features registered with {@link onFinal}, after the write.
   *
   * @param results The result store.
   * @returns The same store, its final writes seen.
   */
  seeing(results: ResultStore): ResultStore {
    const finals = this.#finals;
    return {
      ...results,
      async set(id, entry, ttlMs) {
        const written = await results.set(id, entry, ttlMs);
        if (finals.size === 0 || !hasEnded(entry)) return written;
        // Only the first final entry of a job is its end; a write that finds its own entry kept is that one again.
        if (written || canonicalJson(await results.get(id).catch(() => undefined)) === canonicalJson(entry)) {
          for (const listener of finals.values()) await listener(id, entry, ttlMs);
        }
        return written;
      },
    };
  }
}
