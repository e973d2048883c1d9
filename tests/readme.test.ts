/**
 * The README's TypeScript is code a newcomer pastes: every ```ts block type-checks against this checkout,
 * as in a project that added the package. `@mcplite/sdk` and its entry points map to the sources
 * (jsr.json `exports`), other packages to this repository's node_modules. Two markers, on the line
 * before a block, say more: `<!-- not-checked: why -->` for a block that is deliberately partial, and
 * `<!-- file: server.ts -->` to name the block's file, so that another block can import it.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { entryPointImports } from "./helpers/entry-points.ts";
import { ROOT, run } from "./helpers/process.ts";

/** One ```ts block of the README. */
interface Block {
  /** The line of its opening fence (1-based). */
  line: number;
  /** The file it is checked as. */
  file: string;
  /** Its code, without the fence's indentation. */
  code: string;
  /** Why it is not checked, when it says so. */
  notChecked?: string;
}

/** Reads the ```ts blocks of a Markdown text, with their markers. */
function tsBlocks(markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)/.exec(lines[i]);
    if (open === null) continue;
    const end = lines.findIndex((text, j) => j > i && /^\s*```\s*$/.test(text));
    assert.ok(end > i, `README.md line ${i + 1}: a code block that never closes`);
    if (open[2] === "ts" || open[2] === "typescript") {
      const before = lines.slice(0, i).findLast((text) => text.trim() !== "")?.trim() ?? "";
      const named = /^<!-- file: ([\w.-]+\.ts) -->$/.exec(before)?.[1];
      const notChecked = /^<!-- not-checked: (.*) -->$/.exec(before)?.[1];
      assert.notEqual(notChecked?.trim(), "", `README.md line ${i + 1}: not-checked needs a reason`);
      const code = lines.slice(i + 1, end).map((text) => text.slice(Math.min(open[1].length, indent(text))));
      blocks.push({ line: i + 1, file: named ?? `readme-line-${i + 1}.ts`, code: code.join("\n"), notChecked });
    }
    i = end;
  }
  return blocks;
}

function indent(text: string): number {
  return text.length - text.trimStart().length;
}

const blocks = tsBlocks(readFileSync(`${ROOT}README.md`, "utf8"));

describe("the README's TypeScript", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcplite-readme-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("is found, and only a few blocks are left unchecked, each saying why", () => {
    assert.ok(blocks.length >= 12, `${blocks.length} blocks`);
    assert.ok(blocks.filter((b) => b.notChecked).length <= 2, "a partial block is the exception");
    const files = blocks.map((b) => b.file);
    assert.deepEqual(files, [...new Set(files)], "two blocks name the same file");
  });

  it("type-checks, block by block, against the sources", { timeout: 300_000 }, async () => {
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8"));
    // A project that installed what the examples import: the package's dependencies and the peers
    // they name (redis, Connect's Node transport), all from this repository's node_modules.
    writeFileSync(join(dir, "deno.json"), JSON.stringify({ imports: entryPointImports(), unstable: ["kv"] }));
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ type: "module", dependencies: { ...pkg.dependencies, ...pkg.devDependencies } }),
    );
    symlinkSync(`${ROOT}node_modules`, join(dir, "node_modules"), "dir");
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
