// Writes the API reference: `deno doc --html` over every entry point jsr.json exports, into the built site's api/
// folder (docs/.vitepress/dist/api by default). Run by `npm run docs:build` after `vitepress build`; never committed.
// deno doc names each module by its file (`src/client/mod.ts`); the pages then say what a user writes instead
// (`@mcplite/sdk/client`), and the landing page lists every entry point with its purpose and its guide.
//
//   node docs/scripts/api.mjs [out dir]
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ENTRY_POINTS } from "./entry-points.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const out = process.argv[2] ?? join(ROOT, "docs", ".vitepress", "dist", "api");
const deno = JSON.parse(readFileSync(join(ROOT, "jsr.json"), "utf8")); // the JSR manifest: name and exports
const exports = Object.entries(deno.exports).map(([key, file]) => ({
  key,
  file: file.replace(/^\.\//, ""), // as deno doc names the module
  specifier: key === "." ? deno.name : `${deno.name}/${key.slice(2)}`,
}));
const unlisted = exports.filter(({ key }) => ENTRY_POINTS[key] === undefined).map(({ key }) => key);
if (unlisted.length > 0) {
  console.error(`docs/scripts/entry-points.mjs says nothing of ${unlisted.join(", ")}: add its purpose and guide.`);
  process.exit(1);
}
rmSync(out, { recursive: true, force: true });
const bin = process.env.DENO ?? "deno"; // npm scripts put node_modules/.bin, where the deno devDependency is, on PATH
const run = spawnSync(
  bin,
  ["doc", "--html", `--name=${deno.name}`, `--output=${out}`, ...Object.values(deno.exports)],
  {
    cwd: ROOT,
    stdio: "inherit",
  },
);
if (run.status !== 0) process.exit(run.status ?? 1);

/** Text as deno doc escapes it in HTML. */
const escape = (text) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(
    /\//g,
    "&#x2F;",
  );
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A page with the import specifier where deno doc shows a module's file: the usage block (`import … from "…"`, and
 * its copy button), the breadcrumbs, the all-symbols headings and the title. Links and anchors keep the file.
 */
function withSpecifiers(html) {
  for (const { file, specifier } of exports) {
    html = html.replaceAll(`&quot;${file}&quot;`, `&quot;${specifier}&quot;`);
    const text = new RegExp(`>(\\s*)${escapeRegExp(escape(file))}(\\s*)<`, "g");
    html = html.replace(text, (_, before, after) => `>${before}${escape(specifier)}${after}<`);
    html = html.replace(`<title>${escape(file)} - `, `<title>${escape(specifier)} - `);
    html = html.replace(new RegExp(`(<title>[^<]*? - )${escapeRegExp(escape(file))} - `), `$1${escape(specifier)} - `);
  }
  return html;
}

/** A guide's title: its page's first heading. */
function title(guide) {
  const page = readFileSync(join(ROOT, "docs", `${guide}.md`), "utf8");
  const heading = /^#{1,6} (.+)$/m.exec(page);
  if (heading === null) throw new Error(`docs/${guide}.md has no title`);
  return heading[1].replace(/`/g, "");
}

/** The landing page's content: the way back to the guides, then every entry point. */
function landing() {
  const rows = exports.map(({ key, file, specifier }) => {
    const { purpose, guide } = ENTRY_POINTS[key];
    // Inline code in the purpose, as Markdown writes it.
    const said = escape(purpose).replace(/&#x2F;/g, "/").replace(/`([^`]+)`/g, "<code>$1</code>");
    return `<tr><td><a href="./${file}/index.html"><code>${escape(specifier)}</code></a></td>` +
      `<td>${said}</td><td><a href="../${guide}.html">${escape(title(guide))}</a></td></tr>`;
  });
  return `<main><div class="markdown">
<h1>${escape(deno.name)} API reference</h1>
<p>Generated from the JSDoc of each entry point. To learn the SDK, start with the
<a href="../getting-started/index.html">guides</a>; <a href="../public-api.html">Public API</a> says why each entry point
exists and what it promises.</p>
<h2 id="entry-points">Entry points</h2>
<table>
<thead><tr><th>Import</th><th>For</th><th>Guide</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table>
</div></main>`;
}

// deno doc's pages name no icon, so a browser asks for /favicon.ico, which the site does not have (a 404 on every API
// page, and outside the site under a base path): each page links the site's own icon, as the VitePress pages do.
for (const file of readdirSync(out, { recursive: true }).map(String).filter((f) => f.endsWith(".html"))) {
  const path = join(out, file);
  const icon = relative(dirname(path), join(out, "..", "favicon.svg")).split("\\").join("/");
  // Its source buttons link the build machine's files (file:///…), which no reader has: they go.
  let html = withSpecifiers(readFileSync(path, "utf8")).replace(
    /<a\s+class="sourceButton"\s+href="file:[^"]*">[\s\S]*?<\/a>/g,
    "",
  );
  html = html.replace("<head>", `<head><link rel="icon" type="image/svg+xml" href="${icon}">`);
  if (file === "index.html") {
    // deno doc's own landing page holds an empty <main> and five of the root's symbols.
    if (!/<main>\s*<\/main>/.test(html)) throw new Error("deno doc's index.html has no empty <main> to fill");
    html = html.replace(/<main>\s*<\/main>/, landing());
  }
  writeFileSync(path, html);
}
