/**
 * Time limits of one call: the caller's signal, an idle timeout that anything arriving (a result,
 * progress, a partial) resets, and an optional cap on the total time.
 *
 * @module
 */
import { sleep } from "../internal/sleep.ts";
import { clientError } from "./errors.ts";

/** The limits of one call. */
export interface DeadlineOptions {
  /** The caller's signal. */
  signal?: AbortSignal;
  /** Fails the call when nothing arrives for this long, in ms; 0 or `Infinity` disables it. */
  timeoutMs: number;
  /** Fails the call after this long in total, in ms, however lively. */
  maxTimeoutMs?: number;
}

/**
 * One call's signal and timers. `touch()` restarts the idle timer; `sleep()` waits without counting
 * as idle (a promise's `retry_after_ms`, a task's poll interval); `dispose()` clears everything.
 */
export class Deadline {
  /** Aborted by the caller, the idle timeout or the total timeout. */
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  readonly #idleMs: number;
  #idle: ReturnType<typeof setTimeout> | undefined;
  #total: ReturnType<typeof setTimeout> | undefined;
  #sleeping = 0;
  readonly #user: AbortSignal | undefined;
  readonly #onUserAbort = (): void => this.#controller.abort(this.#user!.reason);

  /**
   * Starts the clock.
   *
   * @param options The signal and limits.
   */
  constructor(options: DeadlineOptions) {
    this.signal = this.#controller.signal;
    this.#idleMs = options.timeoutMs > 0 && Number.isFinite(options.timeoutMs) ? options.timeoutMs : 0;
    this.#user = options.signal;
    if (this.#user?.aborted) this.#controller.abort(this.#user.reason);
    else this.#user?.addEventListener("abort", this.#onUserAbort, { once: true });
    const max = options.maxTimeoutMs;
    if (max !== undefined && max > 0 && Number.isFinite(max)) {
      this.#total = setTimeout(() => this.#fail(`the call took longer than ${max} ms in total`, max), max);
    }
    this.touch();
  }

  /** Restarts the idle timer: something arrived. */
  touch(): void {
    if (this.#idle !== undefined) clearTimeout(this.#idle);
    this.#idle = undefined;
    if (this.#idleMs === 0 || this.#sleeping > 0 || this.signal.aborted) return;
    const ms = this.#idleMs;
    this.#idle = setTimeout(() => this.#fail(`nothing arrived for ${ms} ms`, ms), ms);
  }

  /**
   * Waits, with the idle timer paused; rejects as soon as the call is aborted.
   *
   * @param ms How long.
   * @returns When the time is up.
   */
  sleep(ms: number): Promise<void> {
    return this.pause(sleep(ms, this.signal));
  }

  /**
   * Awaits work that is not the server's to do (the user answering a form, a deliberate wait) with the
   * idle timer paused; it restarts when the work settles.
   *
   * @param work The work.
   * @returns Its result.
   */
  async pause<T>(work: Promise<T>): Promise<T> {
    this.#sleeping++;
    if (this.#idle !== undefined) clearTimeout(this.#idle);
    this.#idle = undefined;
    try {
      return await work;
    } finally {
      this.#sleeping--;
      this.touch();
    }
  }

  /** Clears the timers and lets go of the caller's signal. */
  dispose(): void {
    if (this.#idle !== undefined) clearTimeout(this.#idle);
    if (this.#total !== undefined) clearTimeout(this.#total);
    this.#idle = this.#total = undefined;
    this.#user?.removeEventListener("abort", this.#onUserAbort);
  }

  #fail(message: string, limitMs: number): void {
    this.#controller.abort(clientError("timeout", `Timed out: ${message}`, { data: { limitMs } }));
  }
}

/**
 * Rethrows the reason of an aborted signal in place of whatever the aborted operation threw (fetch and
 * stream reads throw their own `AbortError`s).
 *
 * @param signal The call's signal.
 * @param error What the operation threw.
 * @returns Never.
 */
export function rethrowAbort(signal: AbortSignal, error: unknown): never {
  throw signal.aborted ? signal.reason : error;
}
