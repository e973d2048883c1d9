/**
 * The delays `setTimeout` is asked for while a test runs its subject: a test of a wait (a poll interval, a backoff,
 * a grace) reads how long the code under test chose to wait, not how long a loaded machine took. The timers still
 * run, on real time; only their delays are written down.
 */

/** The delays asked for so far, in order, in ms; `restore()` puts the real `setTimeout` back. */
export interface RecordedTimers {
  readonly delays: number[];
  restore(): void;
}

/** Records every `setTimeout` delay from now until `restore()` (call it in a `finally`). */
export function recordTimers(): RecordedTimers {
  const real = globalThis.setTimeout;
  const delays: number[] = [];
  const recording = (handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    delays.push(Number(ms ?? 0));
    return real(handler, ms, ...args);
  };
  globalThis.setTimeout = Object.assign(recording, real) as unknown as typeof globalThis.setTimeout;
  return { delays, restore: () => void (globalThis.setTimeout = real) };
}
