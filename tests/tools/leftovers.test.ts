/**
 * What `npm test` fails a run for leaving in the temporary directory (tools/leftovers.mjs): a `mcplite-*` entry made
 * during the run, not one that was there before it, nor the run's own, nor another program's.
 */
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { scratchDir } from "../helpers/scratch-dir.ts";
// @ts-types="../../tools/leftovers.d.mts"
import { leftovers, tempEntries } from "../../tools/leftovers.mjs";

describe("a run's leftovers in the temporary directory", () => {
  it("names the mcplite-* folders and files made since the run began, and nothing else", () => {
    const temp = scratchDir("mcplite-leftovers-");
    mkdirSync(join(temp, "mcplite-pg-before"));
    mkdirSync(join(temp, "mcplite-scratch-run"));
    const before = tempEntries(temp);
    mkdirSync(join(temp, "mcplite-serve-a1b2c3"));
    writeFileSync(join(temp, "mcplite-bench-42.lua"), "");
    mkdirSync(join(temp, "tmp.other-program"));
    assert.deepEqual(leftovers(temp, before, ["mcplite-scratch-run"]), [
      "mcplite-bench-42.lua",
      "mcplite-serve-a1b2c3",
    ]);
  });

  it("names none when the run removed what it made", () => {
    const temp = scratchDir("mcplite-leftovers-");
    const before = tempEntries(temp);
    mkdirSync(join(temp, "mcplite-types-x1y2z3"));
    rmSync(join(temp, "mcplite-types-x1y2z3"), { recursive: true });
    assert.deepEqual(leftovers(temp, before), []);
  });
});
