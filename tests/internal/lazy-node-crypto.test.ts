/**
 * `node:crypto` is reached on first use, never at import: loading it costs Bun about 10 ms of a cold
 * start (issue 32, goal 4), which a server that signs no token must not pay.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import { runtimeCommand } from "../helpers/stdio.ts";

const CHILD = new URL("../helpers/builtin-loads.ts", import.meta.url).pathname;

describe("node:crypto, reached lazily", () => {
  it("is not loaded by importing the SDK, building a server or a plain call; a token loads it", () => {
    const { command, args } = runtimeCommand(CHILD);
    const run = spawnSync(command, args, { encoding: "utf8", timeout: 30_000 });
    assert.equal(run.status, 0, run.stderr);
    const steps = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as { step: string; asked: string[] });
    assert.deepEqual(steps.map((s) => s.step), ["import", "plain call", "promise"]);
    assert.ok(!steps[0].asked.includes("node:crypto"), `asked at import: ${steps[0].asked}`);
    assert.ok(!steps[1].asked.includes("node:crypto"), `asked by a plain call: ${steps[1].asked}`);
    // Where the runtime has it (Bun, Deno, Node ≥ 22.3), signing the promise reaches it once.
    assert.equal(steps[2].asked.filter((id) => id === "node:crypto").length, 1, `${steps[2].asked}`);
  });
});
