/**
 * A movable `Date.now` for tests of caches, cooldowns and backoffs measured with it: the clock moves
 * instead of the test waiting.
 */

const realNow = Date.now;

/** Moves `Date.now` forward by `ms` (on top of any earlier move). */
export function advanceClock(ms: number): void {
  const base = Date.now;
  Date.now = () => base() + ms;
}

/** Puts the real `Date.now` back. */
export function restoreClock(): void {
  Date.now = realNow;
}
