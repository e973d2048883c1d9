/**
 * The sizes `.ci/run` prints for review (tools/size-report.mjs): a source file past 450 lines and a folder past 45
 * files are listed, longest first, generated code left out; a file at 450 lines or a folder at 45 files is not.
 * It reports and never fails: the one limit, 600 lines, is tests/boundaries.test.ts's.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
// @ts-types="../../tools/size-report.d.mts"
import { FILE_LINES, FOLDER_FILES, sizeReport } from "../../tools/size-report.mjs";
import { run } from "../helpers/process.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";

const lines = (n: number) => "x;\n".repeat(n);

describe("the size report", () => {
  const root = scratchDir("mcplite-size-report-");

  it("lists the files past 450 lines and the folders past 45 files, not those at the bound nor src/gen", () => {
    assert.equal(FILE_LINES, 450);
    assert.equal(FOLDER_FILES, 45);
    for (const dir of ["src/a", "src/crowded", "src/full", "src/gen"]) mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, "src/a/at-bound.ts"), lines(450));
    writeFileSync(join(root, "src/a/long.ts"), lines(451));
    writeFileSync(join(root, "src/a/longer.ts"), lines(599));
    writeFileSync(join(root, "src/a/notes.md"), lines(900)); // not a source file
    writeFileSync(join(root, "src/gen/generated.ts"), lines(5_000));
    for (let i = 0; i < 46; i++) writeFileSync(join(root, `src/crowded/f${i}.ts`), "");
    for (let i = 0; i < 45; i++) writeFileSync(join(root, `src/full/f${i}.ts`), "");
    for (let i = 0; i < 50; i++) writeFileSync(join(root, `src/gen/g${i}.ts`), "");
    assert.deepEqual(sizeReport(root), {
      files: [{ path: "src/a/longer.ts", lines: 599 }, { path: "src/a/long.ts", lines: 451 }],
      folders: [{ path: "src/crowded/", files: 46 }],
    });
  });

  it("prints this repository's report and exits 0 whatever it lists", async () => {
    const done = await run("node", ["tools/size-report.mjs"], 60_000); // as .ci/run runs it
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /^Sizes to read in review .*: \d+ files? of src\/ over 450 lines, \d+ folders? over 45/);
  });
});
