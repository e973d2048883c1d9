/**
 * The API report (api/, `npm run api:report`) records every entry point's exported names, kinds and
 * signatures; `npm run api:check`, a CI step, fails with a diff when the code's public API differs from it.
 * Checked in a scratch clone of this repository (its committed HEAD), so a deliberate change touches
 * nothing here: untouched, the check passes; with one more export it fails and shows the new line; after
 * `api:report` regenerates the report (and docs/public-api.md's table of names per entry point) it passes
 * again, and the tests that read the report back pass with nothing else edited.
 */
import assert from "node:assert/strict";
import { appendFileSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ROOT, run } from "./helpers/process.ts";
import { scratchDir } from "./helpers/scratch-dir.ts";

const DENO = `${ROOT}node_modules/.bin/deno`;
const TOOL = ["run", "-A", "tools/api-report.ts"];

// Each case runs `deno run tools/api-report.ts` once or twice (up to 60 s each on a busy machine).
const SLOW = { timeout: 150_000 };

describe("the API report", () => {
  // The scratch clone is made by the first test that needs it, within that test's timeout, not in a
  // before() hook: Bun bounds hooks by the run's 30 s, which a clone on a loaded machine can pass.
  const dir = scratchDir("mcplite-api-report-");
  let cloned: Promise<string> | undefined;
  const repo = () =>
    cloned ??= (async () => {
      const clone = join(dir, "repo");
      const done = await run("git", ["clone", "--quiet", "--shared", ROOT, clone], 60_000, dir);
      assert.equal(done.code, 0, done.stderr);
      symlinkSync(join(ROOT, "node_modules"), join(clone, "node_modules"));
      return clone;
    })();

  it("matches the public API of the committed code", SLOW, async () => {
    const clone = await repo();
    const checked = await run(DENO, [...TOOL, "--check"], 60_000, clone);
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
    assert.match(checked.stdout, /matches the API report/);
  });

  it("fails on an unreported export, with a diff naming it, until the report is regenerated", SLOW, async () => {
    const clone = await repo();
    appendFileSync(
      join(clone, "src/client/mod.ts"),
      "\n/**\n * Added by tests/api-report.test.ts.\n * @deprecated Use `String()`.\n */\n" +
        "export function addedForTheTest(count: number): string {\n" +
        "  return String(count);\n}\n",
    );
    const checked = await run(DENO, [...TOOL, "--check"], 60_000, clone);
    assert.equal(checked.code, 1, checked.stdout + checked.stderr);
    assert.match(checked.stderr, /^--- api\/client\.api\.md \(the report\)$/m);
    // The deprecation and its replacement show too (docs/stability.md, Deprecation).
    assert.match(
      checked.stderr,
      /^\+\/\*\* @deprecated Use `String\(\)`\. \*\/\n\+function addedForTheTest\(count: number\): string;$/m,
    );
    assert.match(checked.stderr, /run `npm run api:report`/);

    const written = await run(DENO, TOOL, 60_000, clone);
    assert.equal(written.code, 0, written.stderr);
    assert.ok(readFileSync(join(clone, "api/client.api.md"), "utf8").includes("function addedForTheTest("));
    const again = await run(DENO, [...TOOL, "--check"], 60_000, clone);
    assert.equal(again.code, 0, again.stdout + again.stderr);

    // The page's count moved with the report; regenerating was all it took for the tests that read it back.
    const count = (page: string) => Number(page.match(/^\| `@mcplite\/sdk\/client` +\| (\d+) /m)?.[1]);
    const page = readFileSync(join(clone, "docs/public-api.md"), "utf8");
    assert.equal(count(page), count(readFileSync(join(ROOT, "docs/public-api.md"), "utf8")) + 1);
    const changed = await run("git", ["status", "--porcelain"], 60_000, clone);
    assert.deepEqual(
      changed.stdout.trimEnd().split("\n").map((line) => line.slice(3)).sort(),
      ["api/client.api.md", "docs/public-api.md", "src/client/mod.ts"],
    );
    const tests = ["tests/exports.test.ts", "tests/docs/public-api.test.ts"];
    // --no-check: what they read back is the subject, not their types (the type check would check the SDK anew).
    const checked2 = await run(
      DENO,
      ["test", "-A", "--unstable-no-legacy-abort", "--no-check", ...tests],
      120_000,
      clone,
    );
    assert.equal(checked2.code, 0, checked2.stdout + checked2.stderr);
  });

  it("fails when docs/public-api.md's table of names per entry point is stale", SLOW, async () => {
    const clone = await repo();
    const file = join(clone, "docs/public-api.md");
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.replace(/^(\| `@mcplite\/sdk\/otel` +\| )(\d+)/m, (_, cell, n) => cell + (Number(n) + 1)));
    const checked = await run(DENO, [...TOOL, "--check"], 60_000, clone);
    assert.equal(checked.code, 1, checked.stdout + checked.stderr);
    assert.match(checked.stderr, /^--- docs\/public-api\.md \(the report\)$/m);
    assert.equal((await run(DENO, TOOL, 60_000, clone)).code, 0);
    assert.equal(readFileSync(file, "utf8"), text);
  });

  it("fails on a changed error code's string, which goes on the wire, showing the value", SLOW, async () => {
    const clone = await repo();
    const edits: [string, string, string][] = [
      ["src/errors/error.ts", 'UnknownTool: "unknown_tool"', 'UnknownTool: "no_such_tool"'],
      ["src/errors/webtools-codes.ts", 'RateLimit: "RATE_LIMIT"', 'RateLimit: "RATE_LIMITED"'],
    ];
    for (const [path, before, after] of edits) {
      const file = join(clone, path);
      const text = readFileSync(file, "utf8");
      assert.ok(text.includes(before), before);
      writeFileSync(file, text.replace(before, after));
    }
    const checked = await run(DENO, [...TOOL, "--check"], 60_000, clone);
    assert.equal(checked.code, 1, checked.stdout + checked.stderr);
    assert.match(checked.stderr, /^-const ErrorCode: \{ .*readonly UnknownTool: "unknown_tool";/m);
    assert.match(checked.stderr, /^\+const ErrorCode: \{ .*readonly UnknownTool: "no_such_tool";/m);
    assert.match(checked.stderr, /^\+const WebtoolsCode: \{ .*readonly RateLimit: "RATE_LIMITED";/m);
    const restored = await run("git", ["checkout", "--", ...edits.map(([path]) => path)], 60_000, clone);
    assert.equal(restored.code, 0, restored.stderr);
  });

  it("fails on a changed signature, showing the line before and after", SLOW, async () => {
    const clone = await repo();
    const file = join(clone, "src/client/mod.ts");
    const text = readFileSync(file, "utf8").replace("addedForTheTest(count: number)", "addedForTheTest(count: bigint)");
    writeFileSync(file, text);
    const checked = await run(DENO, [...TOOL, "--check"], 60_000, clone);
    assert.equal(checked.code, 1, checked.stdout + checked.stderr);
    assert.match(checked.stderr, /^-function addedForTheTest\(count: number\): string;$/m);
    assert.match(checked.stderr, /^\+function addedForTheTest\(count: bigint\): string;$/m);
  });
});
