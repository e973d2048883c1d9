// Writes the API reference: `deno doc --html` over every entry point jsr.json exports, into the built site's api/
// folder (docs/.vitepress/dist/api by default). Run by `npm run docs:build` after `vitepress build`; never committed.
//
//   node docs/scripts/api.mjs [out dir]
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const out = process.argv[2] ?? join(ROOT, "docs", ".vitepress", "dist", "api");
const deno = JSON.parse(readFileSync(join(ROOT, "jsr.json"), "utf8")); // the JSR manifest: name and exports
const entries = Object.values(deno.exports);
rmSync(out, { recursive: true, force: true });
const bin = process.env.DENO ?? "deno"; // npm scripts put node_modules/.bin, where the deno devDependency is, on PATH
const run = spawnSync(bin, ["doc", "--html", `--name=${deno.name}`, `--output=${out}`, ...entries], {
  cwd: ROOT,
  stdio: "inherit",
});
if (run.status !== 0) process.exit(run.status ?? 1);
