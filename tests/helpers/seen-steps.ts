/**
 * Lets deferred work go on past its progress step `n` only once the caller has received it: a follower gets
 * the job's latest progress (Job.watch), so two reports close together on a loaded machine may come as the
 * later one, and the tests assert what a caller relies on (every step, in order), not how fast it subscribes.
 * A step never seen lets the work go on after 30 s (a bound for a loaded machine, where a Python client at a sixth
 * of a core took more than 10 s to hand a step back), and the test fails on what it received.
 */

/** The gate of one call: `saw(step)` from the caller's side, `passed(step)` awaited by the work. */
export interface SeenSteps {
  /** Tells the work that the caller received `step`. */
  saw(step: number): void;
  /** Resolves once the caller received `step` (or after 30 s). */
  passed(step: number): Promise<void>;
}

/**
 * Makes the gate of one call.
 *
 * @param count How many steps the work reports (1 to `count`).
 * @returns The gate.
 */
export function seenSteps(count: number): SeenSteps {
  const opened = new Map<number, () => void>();
  const waits = new Map<number, Promise<void>>();
  for (let step = 1; step <= count; step++) {
    waits.set(
      step,
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 30_000);
        opened.set(step, () => (clearTimeout(timer), resolve()));
      }),
    );
  }
  return { saw: (step) => opened.get(step)?.(), passed: (step) => waits.get(step) ?? Promise.resolve() };
}
