/**
 * The README's TypeScript is code a newcomer pastes: every ```ts block type-checks against this checkout,
 * as in a project that added the package. `@mcplite/sdk` and its entry points map to the sources
 * (jsr.json `exports`), other packages to this repository's node_modules. Two markers, on the line
 * before a block, say more: `<!-- not-checked: why -->` for a block that is deliberately partial, and
 * `<!-- file: server.ts -->` to name the block's file, so that another block can import it.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { exampleProject, tsBlocks } from "./helpers/markdown.ts";
import { ROOT, run } from "./helpers/process.ts";
import { ONCE_PER_RUN } from "./helpers/once-per-run.ts";

const blocks = tsBlocks(readFileSync(`${ROOT}README.md`, "utf8"));

describe("the README's TypeScript", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcplite-readme-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("is found, and only a few blocks are left unchecked, each saying why", () => {
    // The landing page: the Quick start's server, the typed client, the TypeScript notes' declaration.
    assert.ok(blocks.length >= 3, `${blocks.length} blocks`);
    assert.ok(blocks.filter((b) => b.notChecked).length <= 2, "a partial block is the exception");
    const files = blocks.map((b) => b.file);
    assert.deepEqual(files, [...new Set(files)], "two blocks name the same file");
  });

  it("type-checks, block by block, against the sources", { timeout: 300_000, skip: ONCE_PER_RUN }, async () => {
    // A project that installed what the examples import, from this repository's node_modules.
    exampleProject(dir);
    const checked = blocks.filter((b) => b.notChecked === undefined);
    for (const block of checked) {
      // `export {}` keeps each block a module of its own, as a file with no import would not be.
      writeFileSync(join(dir, block.file), `// README.md line ${block.line}\n${block.code}\nexport {};\n`);
    }
    const deno = `${ROOT}node_modules/.bin/deno`;
    const { code, stdout, stderr } = await run(deno, ["check", ...checked.map((b) => b.file)], 240_000, dir);
    const where = checked.map((b) => `${b.file}: README.md line ${b.line}`).join("\n");
    // deno-lint-ignore no-control-regex -- Deno colours its diagnostics; the failure message reads better without
    const plain = stderr.replace(/\x1b\[[0-9;]*m/g, "");
    assert.equal(code, 0, `${stdout}${plain}\n${where}`);
  });
});
