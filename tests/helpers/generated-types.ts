/**
 * Checking a module `mcplite types` wrote as its user would: `deno fmt --check` leaves it as it is, and a
 * consumer using it with `createClient<Remote>()` passes `deno check`, so each `// @ts-expect-error` line
 * in the consumer must be an error (a type that accepted the wrong key would leave one unused, and fail).
 * Both checks are `deno` children whose answer does not depend on the runtime running the test, given the same
 * module: they run once per `npm test`, under Bun (ONCE_PER_RUN; MCPLITE_EVERY_RUNTIME=1 runs them under Deno too).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { ONCE_PER_RUN } from "./once-per-run.ts";
import { ROOT, run } from "./process.ts";
import { scratchDir } from "./scratch-dir.ts";

const DENO = `${ROOT}node_modules/.bin/deno`;

/**
 * The first root of a test's `deno check` of code that uses the SDK: the repository's mod.ts, as in the type check's
 * lane (`npm run test:types`). Deno keeps what a check learned (tsc's build info) under its first root and starts
 * the next check with that root from it: the SDK's modules are not type-checked anew (type-errors.test.ts's check,
 * 19 CPU-s alone: 14 after the lane's whole check, 5 after a check of the SDK or another such test's).
 */
export const SDK_CHECK_ROOT = `${ROOT}mod.ts`;

/** A fresh directory for a generated module, removed after the test or suite that made it (`scratchDir()`). */
export function typesDir(): string {
  return scratchDir("mcplite-types-");
}

/** Asserts that `deno fmt` (its defaults, as in a project without a config) would change nothing in `file`. */
export async function assertFormatted(file: string): Promise<void> {
  if (ONCE_PER_RUN) return;
  const checked = await run(DENO, ["fmt", "--check", "--no-config", file], 60_000);
  assert.equal(checked.code, 0, `deno fmt would change ${file}:\n${checked.stderr}${checked.stdout}`);
}

/**
 * Writes `consumer.ts` into `dir` and type-checks it with `deno check`, `@mcplite/sdk/client` resolving to
 * this checkout's sources (the repository's import map), and asserts that it passes.
 */
export async function assertConsumerChecks(dir: string, consumer: string): Promise<void> {
  writeFileSync(join(dir, "consumer.ts"), consumer);
  if (ONCE_PER_RUN) return;
  const checked = await run(
    DENO,
    ["check", "--config", `${ROOT}deno.json`, SDK_CHECK_ROOT, "consumer.ts"],
    170_000,
    dir,
    {
      ...process.env,
      NO_COLOR: "1",
    },
  );
  assert.equal(checked.code, 0, `deno check consumer.ts:\n${checked.stderr}`);
}

/**
 * Consumers of several generated modules, type-checked together: each `deno check` costs a start and its own
 * files' check (the SDK's from SDK_CHECK_ROOT's build info), so a file's tests write their consumers as they run,
 * and its last test checks them all in one `deno check`, as {@link assertConsumerChecks} checks one.
 */
export class Consumers {
  readonly #written: { file: string; label: string }[] = [];
  readonly #dirs: string[] = [];

  /**
   * A fresh directory for a generated module and its consumer, kept until {@link assertCheck} has checked them (a
   * {@link typesDir} goes with the test or suite that made it) and removed then.
   */
  dir(): string {
    const dir = mkdtempSync(join(process.env.MCPLITE_SCRATCH_DIR ?? tmpdir(), "mcplite-types-"));
    this.#dirs.push(dir);
    return dir;
  }

  /** Writes `consumer.ts` into `dir` (next to the module it imports), to be checked with the others. */
  write(dir: string, consumer: string, label: string): void {
    const file = join(dir, "consumer.ts");
    writeFileSync(file, consumer);
    this.#written.push({ file, label });
  }

  /** What each consumer written so far is the consumer of. */
  get labels(): string[] {
    return this.#written.map((written) => written.label);
  }

  /** Type-checks every consumer written, in one `deno check`, and asserts that all pass, naming each one's file. */
  async assertCheck(): Promise<void> {
    try {
      if (ONCE_PER_RUN) return;
      assert.ok(this.#written.length > 0, "no consumer was written");
      const files = this.#written.map((written) => written.file);
      const checked = await run(
        DENO,
        ["check", "--config", `${ROOT}deno.json`, SDK_CHECK_ROOT, ...files],
        170_000,
        tmpdir(),
        {
          ...process.env,
          NO_COLOR: "1",
        },
      );
      const where = this.#written.map((written) => `${written.file}: ${written.label}`).join("\n");
      assert.equal(checked.code, 0, `deno check of the consumers:\n${checked.stderr}\n${where}`);
    } finally {
      for (const dir of this.#dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    }
  }
}
