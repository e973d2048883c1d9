/**
 * How a run of declared work suspends (a queued `work.sleep()`, the store out of reach as the journal is read or
 * written): the wait's promise never settles, so no `try/catch`, retry wrapper or `finally` of the work sees it; the
 * engine races the work against the run's {@link Suspension} and ends the run instead, as Inngest and Restate leave a
 * suspended step pending (a thrown sentinel is swallowed by any `catch` around it). Why:
 * docs/concepts/long-running.md, "Declared work and its steps".
 *
 * @module
 */

/** One run's suspension: the work's side of it ({@link suspend}) and the engine's ({@link ended}). */
export class Suspension {
  #resolve!: (suspension: Suspension) => void;
  /** Whether the run has suspended: nothing more of it runs (its steps and sleeps never settle). */
  suspended = false;
  /**
   * Once suspended, when the job wakes, in ms since the epoch: a queue delivers it again then. `undefined`: the run
   * ends as one whose process died (in process, its lease lapses).
   */
  untilMs: number | undefined;
  /** Resolves with this suspension once the run suspends (the engine races the work against it); never rejects. */
  readonly ended: Promise<Suspension> = new Promise((resolve) => this.#resolve = resolve);

  /**
   * Suspends the run (the first call decides when it wakes): the engine ends it, and the caller's promise never
   * settles.
   *
   * @param untilMs When the job wakes, or `undefined` to end the run as a death would.
   * @returns A promise that never settles.
   */
  suspend(untilMs: number | undefined): Promise<never> {
    if (!this.suspended) {
      this.suspended = true;
      this.untilMs = untilMs;
      this.#resolve(this);
    }
    return pending();
  }
}

/**
 * A promise that never settles. A new one each time: one shared promise would keep every reaction awaiting it (the
 * abandoned work's frames) reachable for good; a fresh one is collected with the work once nothing holds it.
 *
 * @returns The promise.
 */
export function pending(): Promise<never> {
  return new Promise<never>(() => {});
}
