/**
 * The docs site's ```ts blocks and the README's as files to type-check together (tests/docs/code-blocks.test.ts):
 * a folder per page, so that two pages may both name a block `server.ts`; a page that imports a file it does not
 * define (`./server.ts`, "the Quick start's server") gets the one another page names, Getting started's first (the
 * README's blocks import only their own). `npm test` runs this as a script (`bun code-blocks-files.ts DIR`), so that
 * its type check reads them beside the sources, in the same program, rather than a `deno check` of their own.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { type Block, markdownFiles, tsBlocks } from "../helpers/markdown.ts";
import { ROOT } from "../helpers/process.ts";

const DOCS = `${ROOT}docs`;
const FIRST = "getting-started/index.md";

/** The docs site's pages with their blocks. */
export function docsPages(): { page: string; blocks: Block[] }[] {
  return markdownFiles(DOCS).map((page) => ({
    page,
    blocks: tsBlocks(readFileSync(join(DOCS, page), "utf8"), `docs/${page}`),
  }));
}

/** The relative files a block imports (`./server.ts`). */
function localImports(code: string): string[] {
  return [...code.matchAll(/from "\.\/([\w.-]+\.ts)"/g)].map((m) => m[1]);
}

/**
 * Writes every checked block of the docs site and the README into `dir`, and answers the files (relative to `dir`)
 * and, for a failure's message, where each comes from.
 */
export function writeCodeBlocks(dir: string): { files: string[]; where: string[] } {
  const pages = docsPages();
  // Named blocks any page may import, the Getting started page's winning.
  const shared = new Map<string, Block>();
  for (const { blocks } of [...pages.filter((p) => p.page === FIRST), ...pages.filter((p) => p.page !== FIRST)]) {
    for (const block of blocks) {
      if (!shared.has(block.file) && !block.file.includes("-line-")) shared.set(block.file, block);
    }
  }
  const files: string[] = [];
  const where: string[] = [];
  const readme = { page: "README.md", blocks: tsBlocks(readFileSync(`${ROOT}README.md`, "utf8")) };
  for (const { page, blocks } of [...pages, readme]) {
    const checked = blocks.filter((b) => b.notChecked === undefined);
    if (checked.length === 0) continue;
    const folder = page.replace(/\.md$/, "").replace(/\//g, "-");
    mkdirSync(join(dir, folder), { recursive: true });
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
  return { files, where };
}

if (import.meta.main) writeCodeBlocks(process.argv[2]);
