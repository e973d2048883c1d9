/**
 * docs/guides/openapi.md's "Output schemas" section runs as written: each of its TypeScript blocks is saved in a
 * project that maps `@mcplite/sdk` to this checkout (tests/helpers/markdown.ts) and must exit 0 (its own assertions
 * pass) on Deno (type-checked) and on Bun.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { entryPointImports } from "../helpers/entry-points.ts";
import { exampleProject, markdownSection, tsBlocks } from "../helpers/markdown.ts";
import { ROOT, run } from "../helpers/process.ts";

const PAGE = "docs/guides/openapi.md";

describe(`${PAGE}, "Output schemas"`, () => {
  const blocks = tsBlocks(markdownSection(readFileSync(`${ROOT}${PAGE}`, "utf8"), "Output schemas", PAGE), PAGE);
  const dir = mkdtempSync(join(tmpdir(), "mcplite-openapi-guide-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  exampleProject(dir);
  const paths = Object.fromEntries(
    Object.entries(entryPointImports()).map(([name, url]) => [name, [new URL(url).pathname]]),
  );
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, paths } }));
  for (const block of blocks) writeFileSync(join(dir, block.file), `${block.code}\n`);

  it("has a runnable example", () => {
    assert.equal(blocks.length, 1);
    assert.match(blocks[0].code, /outputSchemas: "list"/);
  });

  for (const runtime of ["deno", "bun"] as const) {
    it(`runs on ${runtime}`, { timeout: 120_000 }, async () => {
      for (const block of blocks) {
        const args = runtime === "deno"
          ? ["run", "--check", "-A", "--unstable-no-legacy-abort", block.file]
          : ["run", block.file];
        const ran = await run(`${ROOT}node_modules/.bin/${runtime}`, args, 90_000, dir);
        assert.equal(ran.code, 0, `${block.file} (line ${block.line}): ${ran.stderr}${ran.stdout}`);
      }
    });
  }
});
