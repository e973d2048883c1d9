/**
 * The one bounded wait for a state that announces itself by no event (a store's entry, a queue's counts, a file
 * another process writes, a server's readiness probe): read again every few ms until it holds, failing after a bound
 * with what was awaited and what was last read. Where the code under test offers an event (a promise it resolves, a
 * listener, a log line), a test waits for that instead.
 *
 * The bound is read on `performance.now()`, which a test that moves `Date.now` (clock.ts) does not move.
 */
import { sleep } from "../../src/internal/sleep.ts";

/** The longest a test waits for something that must come, on a loaded machine (a bound, not a measure). */
export const LOADED_MS = 60_000;

/** Options of {@link readUntil}. */
export interface ReadUntilOptions {
  /** The bound (default {@link LOADED_MS}). */
  readonly timeoutMs?: number;
  /** The pause between reads (default 5 ms). */
  readonly everyMs?: number;
  /** Stops the wait between reads (rejecting with its reason), as a job's signal does when the job is cancelled. */
  readonly signal?: AbortSignal;
}

/**
 * Reads `read()` until `done` holds of what it read, and returns that.
 *
 * @param what What is awaited, for the failure's message.
 * @returns The first reading `done` holds of.
 * @throws When `timeoutMs` passed first, naming `what` and showing the last reading.
 */
export async function readUntil<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  what: string,
  { timeoutMs = LOADED_MS, everyMs = 5, signal }: ReadUntilOptions = {},
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (performance.now() > deadline) {
      throw new Error(`${what}: not within ${timeoutMs} ms; last read: ${shown(value)}`);
    }
    await sleep(everyMs, signal); // the pause between reads, not a wait for the state
  }
}

/** A state that says when it changed, and the bounded wait for it to hold: see {@link changes}. */
export interface Changes {
  /** Says the state changed: the waits check it again. */
  changed(): void;
  /**
   * Resolves once `holds()` does (checked now and at each change); fails after `timeoutMs`, naming `what` (a
   * function: read at the failure, so that it can tell what there was then).
   */
  until(holds: () => boolean, what: string | (() => string), timeoutMs?: number): Promise<void>;
}

/**
 * For a state the test itself updates on an event (a request received, a line logged): waits that check it at each
 * change, not on a timer.
 */
export function changes(): Changes {
  const waiters = new Set<() => void>();
  return {
    changed: () => {
      for (const check of waiters) check();
    },
    until: (holds, what, timeoutMs = LOADED_MS) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!holds()) return;
          settle();
          resolve();
        };
        const failed = () => new Error(`${typeof what === "string" ? what : what()}: not within ${timeoutMs} ms`);
        const timer = setTimeout(() => (settle(), reject(failed())), timeoutMs);
        const settle = () => (clearTimeout(timer), waiters.delete(check));
        waiters.add(check);
        check();
      }),
  };
}

/**
 * Waits until `check()` holds, failing after `timeoutMs` with `what` (by default the check's source).
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = LOADED_MS,
  what: string = String(check).slice(0, 300),
): Promise<void> {
  await readUntil(check, (held) => held, what, { timeoutMs });
}

function shown(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 2_000) ?? String(value);
  } catch {
    return String(value);
  }
}
