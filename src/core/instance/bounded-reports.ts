/**
 * Reports that a caller can repeat at will (a forged or expired token costs nothing to send) reach the
 * server's error reporter at a bounded rate: each kind at most once per interval, the report that goes
 * carrying how many of its kind were held back, so a flood is one line with a count, not a flood.
 *
 * @module
 */

/** How long a kind of report is held back after one goes out. */
export const REPORT_INTERVAL_MS = 5_000;
/** How many kinds are followed at once; the oldest is forgotten past it. */
const MAX_KINDS = 256;

/**
 * Creates the bounds: a function that says, for a report of `kind`, whether it goes out now.
 *
 * @param intervalMs How long a kind is held back after a report.
 * @returns For each report: `undefined` to hold it back, else how many of its kind were held back since
 *   the last one that went out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { boundedReports } from "./bounded-reports.ts";
 * const admit = boundedReports(60_000);
 * assert.equal(admit("bad_mac"), 0);
 * assert.equal(admit("bad_mac"), undefined); // held back
 * assert.equal(admit("expired"), 0); // another kind
 * ```
 */
export function boundedReports(intervalMs: number = REPORT_INTERVAL_MS): (kind: string) => number | undefined {
  const kinds = new Map<string, { until: number; held: number }>();
  return (kind) => {
    const time = Date.now();
    const seen = kinds.get(kind);
    if (seen !== undefined && time < seen.until) {
      seen.held++;
      return undefined;
    }
    if (seen === undefined && kinds.size >= MAX_KINDS) kinds.delete(kinds.keys().next().value!);
    kinds.set(kind, { until: time + intervalMs, held: 0 });
    return seen?.held ?? 0;
  };
}
