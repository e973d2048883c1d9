/**
 * The documentation site's TypeScript (every ```ts block of docs/**\/*.md) and the README's type-check against
 * this checkout, in one program (the sources are checked once, not once per page; the README's own markers are
 * tests/readme.test.ts's), as tests/docs/code-blocks-files.ts writes them: here in a `deno check` of their own, and
 * under `npm test` in its type check, beside the sources (tools/test.mjs).
 */
import assert from "node:assert/strict";
import process from "node:process";
import { describe, it } from "node:test";
import { exampleProject } from "../helpers/markdown.ts";
import { ROOT, run } from "../helpers/process.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";
import { docsPages, writeCodeBlocks } from "./code-blocks-files.ts";

const pages = docsPages();

/**
 * Under `npm test`, its type check reads the blocks (tools/test.mjs writes them there with code-blocks-files.ts and
 * names the folder here): the same check, in the program that checks the sources, not a `deno check` of its own.
 */
const CHECKED_BESIDE_THE_SOURCES = process.env.MCPLITE_DOCS_BLOCKS
  ? `type-checked by npm test's type check, beside the sources (${process.env.MCPLITE_DOCS_BLOCKS})`
  : false;

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
    skip: ONCE_PER_RUN || CHECKED_BESIDE_THE_SOURCES,
  }, async () => {
    exampleProject(dir);
    const { files, where } = writeCodeBlocks(dir);
    const deno = `${ROOT}node_modules/.bin/deno`;
    const { code, stdout, stderr } = await run(deno, ["check", ...files], 280_000, dir);
    // deno-lint-ignore no-control-regex -- Deno colours its diagnostics; the failure message reads better without
    const plain = stderr.replace(/\x1b\[[0-9;]*m/g, "");
    assert.equal(code, 0, `${stdout}${plain}\n${where.join("\n")}`);
  });
});
