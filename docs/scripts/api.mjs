// Writes the API reference: `deno doc --html` over every entry point jsr.json exports, into the built site's api/
// folder (docs/.vitepress/dist/api by default). Run by `npm run docs:build` after `vitepress build`; never committed.
//
//   node docs/scripts/api.mjs [out dir]
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
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

// deno doc's pages name no icon, so a browser asks for /favicon.ico, which the site does not have (a 404 on every API
// page, and outside the site under a base path): each page links the site's own icon, as the VitePress pages do.
for (const file of readdirSync(out, { recursive: true }).map(String).filter((f) => f.endsWith(".html"))) {
  const path = join(out, file);
  const icon = relative(dirname(path), join(out, "..", "favicon.svg")).split("\\").join("/");
  const html = readFileSync(path, "utf8");
  writeFileSync(path, html.replace("<head>", `<head><link rel="icon" type="image/svg+xml" href="${icon}">`));
}
