/**
 * docs/guides/composing.md's "Tool transforms" and "Tool search" sections run as written (the group, proxy and
 * gateway sections: tests/docs/composing.test.ts): each of their TypeScript
 * blocks is saved in a project that maps `@mcplite/sdk` to this checkout (tests/helpers/markdown.ts) and must exit 0
 * (its own assertions pass) on Deno and on Bun.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { entryPointImports } from "../helpers/entry-points.ts";
import { exampleProject, tsBlocks } from "../helpers/markdown.ts";
import { ROOT, run } from "../helpers/process.ts";

const PAGE = "docs/guides/composing.md";

/** The section of a page under a `## ` heading, up to the next one; the lines before it blank, so lines keep their numbers. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `${PAGE} has a "## ${heading}" section`);
  const next = markdown.indexOf("\n## ", start + 1);
  return "\n".repeat(markdown.slice(0, start).split("\n").length - 1) +
    markdown.slice(start, next === -1 ? undefined : next);
}

for (const [heading, call] of [["Tool transforms", /transformTool\(/], ["Tool search", /toolSearch\(/]] as const) {
  describe(`${PAGE}, "${heading}"`, () => {
    const blocks = tsBlocks(section(readFileSync(`${ROOT}${PAGE}`, "utf8"), heading), PAGE);
    const dir = mkdtempSync(join(tmpdir(), "mcplite-composing-"));
    after(() => rmSync(dir, { recursive: true, force: true }));
    exampleProject(dir);
    const paths = Object.fromEntries(
      Object.entries(entryPointImports()).map(([name, url]) => [name, [new URL(url).pathname]]),
    );
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, paths } }));
    for (const block of blocks) writeFileSync(join(dir, block.file), `${block.code}\n`);

    it("has a runnable example", () => {
      assert.ok(blocks.length >= 1);
      assert.match(blocks[0].code, call);
    });

    for (const runtime of ["deno", "bun"] as const) {
      it(`runs on ${runtime}`, { timeout: 120_000 }, async () => {
        for (const block of blocks) {
          const args = runtime === "deno"
            ? ["run", "-A", "--unstable-no-legacy-abort", block.file]
            : ["run", block.file];
          const ran = await run(`${ROOT}node_modules/.bin/${runtime}`, args, 90_000, dir);
          assert.equal(ran.code, 0, `${block.file} (line ${block.line}): ${ran.stderr}${ran.stdout}`);
        }
      });
    }
  });
}
