/**
 * A movable `Date.now` for tests of caches, cooldowns and backoffs measured with it: the clock moves
 * instead of the test waiting, or stands still while the test works, however long a loaded machine takes.
 */

const realNow = Date.now;

/** Moves `Date.now` forward by `ms` (on top of any earlier move). */
export function advanceClock(ms: number): void {
  const base = Date.now;
  Date.now = () => base() + ms;
}

/** Stops `Date.now` where it is now, until {@link advanceClock} moves it or {@link restoreClock} puts it back. */
export function freezeClock(): void {
  const frozen = Date.now();
  Date.now = () => frozen;
}

/** Puts the real `Date.now` back. */
export function restoreClock(): void {
  Date.now = realNow;
}
