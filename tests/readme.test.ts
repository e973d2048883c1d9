/**
 * The README's TypeScript is code a newcomer pastes: every ```ts block type-checks against this checkout,
 * as in a project that added the package (tests/docs/code-blocks.test.ts checks them, in the one `deno check`
 * of every docs block). Two markers, on the line before a block, say more: `<!-- not-checked: why -->` for a
 * block that is deliberately partial, and `<!-- file: server.ts -->` to name the block's file, so that another
 * block can import it.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { tsBlocks } from "./helpers/markdown.ts";
import { ROOT } from "./helpers/process.ts";

const blocks = tsBlocks(readFileSync(`${ROOT}README.md`, "utf8"));

describe("the README's TypeScript", () => {
  it("is found, and only a few blocks are left unchecked, each saying why", () => {
    // The landing page: the Quick start's server, the typed client, the TypeScript notes' declaration.
    assert.ok(blocks.length >= 3, `${blocks.length} blocks`);
    assert.ok(blocks.filter((b) => b.notChecked).length <= 2, "a partial block is the exception");
    const files = blocks.map((b) => b.file);
    assert.deepEqual(files, [...new Set(files)], "two blocks name the same file");
  });
});
