/**
 * Tests whose subject is outside the runtime that runs them — `npm pack` and installs, tsc, VitePress,
 * `deno check` of documentation, the Deno and Bun CLIs on generated projects — run once per `npm test`,
 * under `bun test`. Under `deno test` they would repeat the same checks, and `npm test` runs both
 * runtimes at once (tools/test.mjs), where two builds would race on dist/ and docs/.vitepress/dist.
 * `MCPLITE_EVERY_RUNTIME=1` runs them under Deno too.
 */
import process from "node:process";

/** A `skip` option: the reason under Deno, false elsewhere (or with MCPLITE_EVERY_RUNTIME=1). */
export const ONCE_PER_RUN: string | false = "Deno" in globalThis && process.env.MCPLITE_EVERY_RUNTIME !== "1"
  ? "runs once per npm test, under bun test (the same checks; MCPLITE_EVERY_RUNTIME=1 runs it here too)"
  : false;

/** Whether this is a CI run (`CI` set, as CI services and `.ci/run` set it). */
export const IN_CI: boolean = !["", "0", "false"].includes(process.env.CI ?? "");

/**
 * Skips a test whose prerequisite is missing here (the npm registry, Node 22, npm itself), saying why;
 * in CI it fails instead, so that what CI is to prove (the packed tarball run by each runtime) never
 * passes there by being skipped.
 *
 * @param t The test's context.
 * @param reason What is missing.
 * @throws {Error} In CI.
 */
export function skipOutsideCi(t: { skip(message?: string): void }, reason: string): void {
  if (IN_CI) throw new Error(`in CI this test may not skip: ${reason}`);
  t.skip(reason);
}
