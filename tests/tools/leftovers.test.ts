/**
 * What `npm test` fails a run for leaving in the temporary directory it gives the tests (tools/leftovers.mjs): a
 * `mcplite-*` folder or file, not what other programs (Chromium, npm) leave there, nor what a test removed.
 */
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { scratchDir } from "../helpers/scratch-dir.ts";
// @ts-types="../../tools/leftovers.d.mts"
import { leftovers } from "../../tools/leftovers.mjs";

describe("a run's leftovers in its temporary directory", () => {
  it("names the mcplite-* folders and files, and nothing else", () => {
    const temp = scratchDir("mcplite-leftovers-");
    mkdirSync(join(temp, "mcplite-serve-a1b2c3"));
    writeFileSync(join(temp, "mcplite-bench-42.lua"), "");
    mkdirSync(join(temp, ".org.chromium.Chromium.x1y2z3"));
    assert.deepEqual(leftovers(temp), ["mcplite-bench-42.lua", "mcplite-serve-a1b2c3"]);
  });

  it("names none when the tests removed what they made", () => {
    const temp = scratchDir("mcplite-leftovers-");
    mkdirSync(join(temp, "mcplite-types-x1y2z3"));
    rmSync(join(temp, "mcplite-types-x1y2z3"), { recursive: true });
    assert.deepEqual(leftovers(temp), []);
  });
});
