/**
 * The documentation site's TypeScript (every ```ts block of docs/**\/*.md) and the README's type-check against
 * this checkout, in one `deno check` (one program: the sources are checked once, not once per page; the
 * README's own markers are tests/readme.test.ts's). Each page is a folder of its own, so that two pages may
 * both name a block `server.ts`; a page that imports a file it does not define (`./server.ts`, "the Quick
 * start's server") gets the one another page names, the Getting started page's first (the README's blocks
 * import only their own).
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { type Block, exampleProject, markdownFiles, tsBlocks } from "../helpers/markdown.ts";
import { ROOT, run } from "../helpers/process.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";

const DOCS = `${ROOT}docs`;
const pages = markdownFiles(DOCS).map((page) => ({
  page,
  blocks: tsBlocks(readFileSync(join(DOCS, page), "utf8"), `docs/${page}`),
}));

/** Named blocks any page may import, the Getting started page's winning. */
const shared = new Map<string, Block>();
const FIRST = "getting-started/index.md";
for (const { blocks } of [...pages.filter((p) => p.page === FIRST), ...pages.filter((p) => p.page !== FIRST)]) {
  for (const block of blocks) {
    if (!shared.has(block.file) && !block.file.includes("-line-")) shared.set(block.file, block);
  }
}

/** The relative files a block imports (`./server.ts`). */
function localImports(code: string): string[] {
  return [...code.matchAll(/from "\.\/([\w.-]+\.ts)"/g)].map((m) => m[1]);
}

describe("the docs site's TypeScript", () => {
  const dir = scratchDir("mcplite-docs-");

  it("is found on the pages that teach code, and few blocks are left unchecked", () => {
    const all = pages.flatMap((p) => p.blocks);
    assert.ok(all.length >= 40, `${all.length} blocks`);
    for (const page of ["getting-started/deno.md", "getting-started/bun.md", "concepts/tools.md", "guides/mcp.md"]) {
      assert.ok(pages.find((p) => p.page === page)?.blocks.length, `${page} has TypeScript`);
    }
    assert.ok(all.filter((b) => b.notChecked).length <= 3, "a partial block is the exception");
    for (const { page, blocks } of pages) {
      const files = blocks.map((b) => b.file);
      assert.deepEqual(files, [...new Set(files)], `two blocks of ${page} name the same file`);
    }
  });

  it("type-checks, page by page and the README, against the sources", {
    timeout: 300_000,
    skip: ONCE_PER_RUN,
  }, async () => {
    exampleProject(dir);
    const files: string[] = [];
    const where: string[] = [];
    const readme = { page: "README.md", blocks: tsBlocks(readFileSync(`${ROOT}README.md`, "utf8")) };
    for (const { page, blocks } of [...pages, readme]) {
      const checked = blocks.filter((b) => b.notChecked === undefined);
      if (checked.length === 0) continue;
      const folder = page.replace(/\.md$/, "").replace(/\//g, "-");
      mkdirSync(join(dir, folder));
      const own = new Set(checked.map((b) => b.file));
      const wanted = [...checked];
      for (let i = 0; i < wanted.length; i++) {
        for (const name of localImports(wanted[i].code)) {
          const other = page === readme.page ? undefined : shared.get(name);
          if (own.has(name) || other === undefined) continue;
          own.add(name);
          wanted.push(other);
        }
      }
      for (const block of wanted) {
        // `export {}` keeps each block a module of its own, as a file with no import would not be.
        const source = page === readme.page ? page : `docs/${page}`;
        writeFileSync(join(dir, folder, block.file), `// ${source} line ${block.line}\n${block.code}\nexport {};\n`);
        files.push(`${folder}/${block.file}`);
        where.push(`${folder}/${block.file}: ${source} line ${block.line}`);
      }
    }
    const deno = `${ROOT}node_modules/.bin/deno`;
    const { code, stdout, stderr } = await run(deno, ["check", ...files], 280_000, dir);
    // deno-lint-ignore no-control-regex -- Deno colours its diagnostics; the failure message reads better without
    const plain = stderr.replace(/\x1b\[[0-9;]*m/g, "");
    assert.equal(code, 0, `${stdout}${plain}\n${where.join("\n")}`);
  });
});
