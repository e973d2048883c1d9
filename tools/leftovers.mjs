// What a test run left in its temporary directory: the `mcplite-*` entries (the tests name their folders so).
// tools/test.mjs gives the tests a temporary directory of the run's own (TMPDIR) and fails a run that leaves one there:
// a test removes what it makes (tests/helpers/scratch-dir.ts), and a green run leaves nothing behind.
// Plain JavaScript for Node, as tools/test.mjs.
import { readdirSync } from "node:fs";

/**
 * The `mcplite-*` entries of `dir`, sorted.
 *
 * @param {string} dir
 * @returns {string[]}
 */
export function leftovers(dir) {
  return readdirSync(dir).filter((name) => name.startsWith("mcplite-")).sort();
}
