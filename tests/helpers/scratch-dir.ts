/**
 * Scratch directories for tests: made at load, removed after the tests of the suite that made them.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";

/**
 * Makes a directory named `prefix` plus a random suffix (in the system's temporary directory, or in `parent`),
 * and removes it after the current suite's tests. The removal runs in a process of its own: deleting the
 * `node_modules` of an installed project took 50 s on a loaded CI machine, past the hook timeout Bun applies
 * (its `after()` takes no timeout of its own), and nothing a test asserts waits on it.
 */
export function scratchDir(prefix: string, parent: string = tmpdir()): string {
  const dir = mkdtempSync(join(parent, prefix));
  after(() => spawn("rm", ["-rf", dir], { detached: true, stdio: "ignore" }).unref());
  return dir;
}
