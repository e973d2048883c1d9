// Whether `npm test` runs the builds of third-party frameworks that check a recipe (RECIPE_BUILD in
// tests/helpers/once-per-run.ts: the Next.js mount, the VitePress site, each `mcplite init` template installed from
// npm). They take minutes of a 2-core run's CPU for what changes only with the docs, a recipe or a template, so a run
// takes them when the digest of what they check (RECIPE_INPUTS) differs from the one tests/recipe-builds.sha256
// records: a run whose packaging lane passed with them writes it (commit it with the change), and `npm run test:all`
// always runs them (issue 99). Plain JavaScript for Node, as tools/test.mjs is.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

/** What the builds check: the docs (and their site), the init templates, the frameworks' versions, the tests. */
export const RECIPE_INPUTS = [
  "docs/",
  "src/cli/init.ts",
  "src/cli/init-templates.ts",
  "src/cli/init-sdk.ts",
  "package-lock.json",
  "tests/docs-site.test.ts",
  "tests/docs/mounting.test.ts",
  "tests/cli/cli-init.test.ts",
];

/** Where the digest of the inputs the builds last passed on is kept. */
export const RECIPE_DIGEST_FILE = "tests/recipe-builds.sha256";

/**
 * The digest of RECIPE_INPUTS as they are in the working tree (the files git tracks there, each by path and content),
 * or undefined where git cannot list them (then the builds run).
 */
export function recipeDigest() {
  const listed = spawnSync("git", ["ls-files", "-z", "--", ...RECIPE_INPUTS], { encoding: "utf8" });
  if (listed.status !== 0) return undefined;
  const hash = createHash("sha256");
  for (const path of listed.stdout.split("\0").filter(Boolean).sort()) {
    hash.update(`${path}\0`);
    if (existsSync(path)) hash.update(readFileSync(path));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** Whether the builds last passed on `digest`. */
export function recipesPassedOn(digest) {
  return digest !== undefined && existsSync(RECIPE_DIGEST_FILE) &&
    readFileSync(RECIPE_DIGEST_FILE, "utf8").trim() === digest;
}

/** Records that the builds passed on `digest`. */
export function recordRecipesPassed(digest) {
  writeFileSync(RECIPE_DIGEST_FILE, `${digest}\n`);
}
