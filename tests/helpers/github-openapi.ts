/**
 * GitHub's REST API description, from the `@octokit/openapi` npm package as `bash .ci/octokit-openapi.sh`
 * installs it into ~/.cache/mcplite, outside the repository (the package is some 385 MB).
 */
import { existsSync, readFileSync } from "node:fs";
import { missingOutsideCi } from "./once-per-run.ts";
import { ROOT, run } from "./process.ts";

/** Why a test of GitHub's description skips. */
export const GITHUB_OPENAPI_MISSING =
  "needs GitHub's REST description (@octokit/openapi): bash .ci/octokit-openapi.sh installs it (outside the repository)";

/**
 * A file of the package's `generated/` folder, parsed: `api.github.com.json` as GitHub publishes it, or
 * `api.github.com.deref.json` with every `$ref` resolved; undefined when the package is not installed.
 */
// deno-lint-ignore no-explicit-any
export async function githubDescription(file: "api.github.com.json" | "api.github.com.deref.json"): Promise<any> {
  const dir = (await run("bash", [`${ROOT}.ci/octokit-openapi.sh`, "--path"])).stdout.trim();
  const path = `${dir}/generated/${file}`;
  return existsSync(path)
    ? JSON.parse(readFileSync(path, "utf8"))
    : missingOutsideCi(GITHUB_OPENAPI_MISSING) && undefined;
}
