/**
 * Tests whose subject is outside the runtime that runs them — `npm pack` and installs, tsc, VitePress,
 * `deno check` of documentation, the Deno and Bun CLIs on generated projects — run once per `npm test`,
 * under `bun test`. Under `deno test` they would repeat the same checks, and `npm test` runs both
 * runtimes at once (tools/test.mjs), where two builds would race on dist/ and docs/.vitepress/dist.
 * Whole files of them are listed in tools/test.mjs (ONCE: Deno's lane does not run them); this marker is
 * for a test inside a file that runs on both. `MCPLITE_EVERY_RUNTIME=1` runs them under Deno too.
 *
 * And the tests' external prerequisites (Redis, Chromium, the Python clients, Prism, Node 22, the npm
 * registry): outside CI a test skips without one, saying how to install it; in CI (`.ci/run` installs
 * them all) it fails instead, naming it.
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

/**
 * A missing prerequisite, for a `skip` option or a helper that finds one: the reason (or `false`, nothing is
 * missing) outside CI; in CI it throws instead, so that the test or the file fails naming what is missing.
 *
 * @example
 * ```ts ignore
 * const REDIS_MISSING = missingOutsideCi(found ? false : "no redis-server on PATH: apt-get install redis-server");
 * describe("on Redis", { skip: REDIS_MISSING }, () => {});
 * ```
 *
 * @param reason What is missing and how to install it, or `false`.
 * @returns `reason`.
 * @throws {Error} In CI, when `reason` is a string.
 */
export function missingOutsideCi<T extends string | false>(reason: T): T {
  if (reason !== false && IN_CI) throw new Error(`in CI this prerequisite must be present: ${reason}`);
  return reason;
}

/**
 * A `skip` option for a build of a third-party framework that checks a recipe (the Next.js mount, the VitePress site,
 * each `mcplite init` template installed from npm): minutes of a 2-core run's CPU for what changes only with the docs,
 * a recipe or a template. `npm run test:all` runs them, and `npm test` when what they check changed since they last
 * passed (tools/test.mjs sets MCPLITE_RECIPE_BUILDS=1 then: its RECIPE_INPUTS' digest differs from the one
 * tests/recipe-builds.sha256 records); run alone (`bun test`, `deno test`), they run as well.
 */
export const RECIPE_BUILD: string | false = process.env.MCPLITE_RECIPE_BUILDS === "0"
  ? "a recipe's framework build: runs under npm run test:all, and under npm test when the docs, a recipe or a " +
    "template changed since it last passed (tools/test.mjs, RECIPE_INPUTS)"
  : false;
