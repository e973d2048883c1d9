/**
 * Scratch directories for tests: made at load, removed after the tests of the suite that made them.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after } from "node:test";

/**
 * Makes a directory named `prefix` plus a random suffix (in `parent`: by default the run's scratch directory, which
 * `npm test` names in `MCPLITE_SCRATCH_DIR`, else the system's temporary directory), and removes it after the
 * current suite's tests. The removal runs in a process of its own: deleting the `node_modules` of an installed
 * project took 50 s on a loaded CI machine, past the hook timeout Bun applies (its `after()` takes no timeout of its
 * own), and nothing a test asserts waits on it. `bun test --parallel` kills that process with its worker (Bun 1.4),
 * (and may run a file's top-level `after()` before its last test ends), so `npm test` (tools/test.mjs) removes the
 * run's scratch directory itself once every lane has ended, and the hidden folders a run made under tests/.
 */
export function scratchDir(prefix: string, parent: string = process.env.MCPLITE_SCRATCH_DIR ?? tmpdir()): string {
  const dir = mkdtempSync(join(parent, prefix));
  after(() => spawn("rm", ["-rf", dir], { detached: true, stdio: "ignore" }).unref());
  return dir;
}
