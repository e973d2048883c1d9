/**
 * The wall-clock timestamp results carry, formatted at most once per millisecond.
 *
 * @module
 */

let lastMs = NaN;
let lastIso = "";

/**
 * Returns the current time as an ISO 8601 string. Under load many responses share a millisecond, so
 * the string is reused until the clock moves (as HTTP servers cache their `Date` header).
 *
 * @param ms The time to format, in ms since the epoch (default: now), when the caller read the clock already.
 * @returns The time, e.g. `2026-07-28T12:00:00.000Z`.
 */
export function isoNow(ms: number = Date.now()): string {
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
