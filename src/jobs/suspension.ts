/**
 * How a run of declared work suspends (a queued `work.sleep()`, the store out of reach as the journal is read or
 * written): the wait's promise never settles, so no `try/catch`, retry wrapper or `finally` of the work sees it; the
 * engine races the work against the run's {@link Suspension} and ends the run instead, as Inngest and Restate leave a
 * suspended step pending (a thrown sentinel is swallowed by any `catch` around it). Why:
 * docs/concepts/long-running.md, "Declared work and its steps".
 *
 * @module
 */

/** What the engine learns of a run that suspended: when its job should run again, if it should. */
export class Suspended {
  /**
   * When the job wakes, in ms since the epoch: a queue delivers it again then. `undefined`: the run ends as one
   * whose process died (in process, its lease lapses).
   */
  declare readonly untilMs: number | undefined;

  /**
   * Makes the verdict.
   *
   * @param untilMs When the job wakes, or `undefined` for a run that ends as a death.
   */
  constructor(untilMs: number | undefined) {
    this.untilMs = untilMs;
  }
}

/** One run's suspension: the work's side of it ({@link suspend}) and the engine's ({@link ended}). */
export class Suspension {
  #resolve!: (suspended: Suspended) => void;
  #suspended: Suspended | undefined;
  /** Resolves once the run suspends (the engine races the work against it); never rejects. */
  readonly ended: Promise<Suspended> = new Promise((resolve) => this.#resolve = resolve);

  /** Whether the run has suspended: nothing of it runs on (its steps and sleeps never settle). */
  get suspended(): boolean {
    return this.#suspended !== undefined;
  }

  /**
   * Suspends the run (the first call decides when it wakes): the engine ends it, and the caller's promise never
   * settles.
   *
   * @param untilMs When the job wakes, or `undefined` to end the run as a death would.
   * @returns A promise that never settles.
   */
  suspend(untilMs: number | undefined): Promise<never> {
    if (this.#suspended === undefined) this.#resolve(this.#suspended = new Suspended(untilMs));
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
