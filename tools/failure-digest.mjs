// What failed in a test run's output, short enough to read at the end of a CI log.
//
// CI services keep the tail of a log in view (and some keep only the tail): a lane that failed early, its output
// printed minutes before the run ends, would otherwise show only "failed (exit 1)". tools/test.mjs prints this
// digest for each failed lane last: each failed test with the lines its runner printed about it.
// Plain JavaScript for Node, as tools/test.mjs.

/** At most this many lines per failed lane. */
const MAX_LINES = 160;
/** At most this many lines of one failed test's own output (its error and stack). */
const PER_FAILURE = 40;

// ANSI colour codes, which bun and deno print even into a file when FORCE_COLOR or a CI variable asks them to.
// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

/**
 * `text` without its colour codes.
 *
 * @param {string} text
 * @returns {string}
 */
export const uncoloured = (text) => text.replace(ANSI, "");

/**
 * The failures in `text`, the output of `bun test` or `deno test` (or `deno check`), as lines to print; empty
 * when the output names none (then the lane's last lines are what there is to show).
 *
 * - bun: each `(fail)` line with the lines printed since the test before it ended (the error, the diff, the
 *   stack), and each "Unhandled error between tests" with what follows it.
 * - deno: the `ERRORS` section its report ends with (each failed test, its error and where), through `FAILURES`.
 * - otherwise (a type check, a crash): the last lines.
 *
 * @param {string} text
 * @returns {string[]}
 */
export function failureDigest(text) {
  const lines = uncoloured(text).split("\n");
  const digest = [];
  const errors = lines.findLastIndex((line) => /^\s*ERRORS\s*$/.test(line));
  if (errors >= 0) {
    digest.push(...lines.slice(errors, errors + MAX_LINES));
  } else {
    let since = 0; // the first line after the last test that ended
    for (const [i, line] of lines.entries()) {
      if (/^\((pass|skip|todo)\) /.test(line)) since = i + 1;
      else if (/^\(fail\) /.test(line)) {
        digest.push(...lines.slice(Math.max(since, i - PER_FAILURE), i + 1), "");
        since = i + 1;
      } else if (/^# Unhandled error between tests/.test(line)) {
        digest.push(...lines.slice(i, i + PER_FAILURE), "");
      }
    }
  }
  if (digest.length === 0) digest.push(...lines.slice(-40));
  return digest.length > MAX_LINES
    ? [...digest.slice(0, MAX_LINES), `… (${digest.length - MAX_LINES} more lines above in the log)`]
    : digest;
}
