// What a test run left in the system's temporary directory: the `mcplite-*` entries (the tests name their scratch
// folders so) that were not there when it began, but the run's own. tools/test.mjs fails a run that leaves one: a
// test removes what it makes (tests/helpers/scratch-dir.ts), and a green run leaves nothing behind.
// Plain JavaScript for Node, as tools/test.mjs.
import { readdirSync } from "node:fs";

/**
 * The `mcplite-*` entries of `dir`, sorted.
 *
 * @param {string} dir
 * @returns {string[]}
 */
export function tempEntries(dir) {
  return readdirSync(dir).filter((name) => name.startsWith("mcplite-")).sort();
}

/**
 * The `mcplite-*` entries of `dir` that are not in `before` (its {@link tempEntries} when the run began) nor in
 * `own` (what the run itself made there and removes in the background).
 *
 * @param {string} dir
 * @param {readonly string[]} before
 * @param {readonly string[]} [own]
 * @returns {string[]}
 */
export function leftovers(dir, before, own = []) {
  return tempEntries(dir).filter((name) => !before.includes(name) && !own.includes(name));
}
