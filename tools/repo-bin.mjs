// The environment the repository's tools (tools/test.mjs, tools/guard.mjs) give the programs they start: Deno
// and Bun come from npm (devDependencies), found in node_modules/.bin whether npm runs a tool or a shell does.
// Plain JavaScript for Node, so that a fresh machine with Node and npm only runs it.
import { delimiter } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../node_modules/.bin", import.meta.url));

/** `process.env` with node_modules/.bin first on PATH, and `extra` set. */
export function repoEnv(extra = {}) {
  return { ...process.env, PATH: [BIN, process.env.PATH].filter(Boolean).join(delimiter), ...extra };
}
