/**
 * The documentation's examples as `npm test` runs them under Deno (tools/doc-examples.mjs): the blocks `deno test
 * --doc` would run, no more and no fewer, each a module whose imports resolve as they do beside the documented file.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
// @ts-types="../../tools/doc-examples.d.mts"
import { docExamples } from "../../tools/doc-examples.mjs";
import { ROOT, run } from "../helpers/process.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";

const dir = scratchDir("mcplite-doc-examples-");
const DENO = `${ROOT}node_modules/.bin/deno`;
// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

/** A documented file with each kind of fence Deno tells apart. */
const SOURCE = `/**
 * Adds.
 *
 * \`\`\`ts
 * import assert from "node:assert/strict";
 * import {
 *   add,
 *   type Pair,
 * } from "./math.ts";
 * import "./setup.ts";
 *
 * const pair: Pair = [1, 2];
 * assert.equal(add(...pair), 3);
 * \`\`\`
 *
 * \`\`\`ts ignore
 * add("not", "numbers");
 * \`\`\`
 *
 * \`\`\`sh
 * deno run main.ts
 * \`\`\`
 */
export function add(a: number, b: number): number {
  return a + b;
}

/**
 * A fence without a language is TypeScript in a .ts file, as is \`typescript\`.
 *
 * \`\`\`
 * import { add } from "../lib/math.ts";
 * console.log(add(2, 3) * 2);
 * \`\`\`
 *
 * \`\`\`typescript
 * import * as v from "valibot";
 * v.parse(v.number(), 1);
 * \`\`\`
 */
export const five = 5;

/** Two numbers. */
export type Pair = [number, number];
`;

describe("the documentation's examples, as Deno's --doc runs them", () => {
  writeFileSync(join(dir, "math.ts"), SOURCE);
  writeFileSync(join(dir, "math.d.ts"), SOURCE); // a declaration file has no examples to run
  const examples = docExamples(["."], dir);
  const base = pathToFileURL(join(dir, "math.ts"));

  it("takes ts, typescript and unlabelled fences, not `ts ignore` or another language", () => {
    assert.deepEqual(examples.map((example) => example.name), ["math.ts#4-15", "math.ts#31-35", "math.ts#36-40"]);
  });

  it("hoists every import, multi-line and bare ones too, and resolves relative ones beside the documented file", () => {
    const [first, second] = examples.map((example) => example.source);
    const top = first.slice(0, first.indexOf("Deno.test("));
    assert.match(top, /^import assert from "node:assert\/strict";$/m);
    assert.ok(top.includes(`} from ${JSON.stringify(new URL("./math.ts", base).href)};`), top);
    assert.ok(top.includes(`import ${JSON.stringify(new URL("./setup.ts", base).href)};`), top);
    assert.ok(second.includes(JSON.stringify(new URL("../lib/math.ts", base).href)), second);
  });

  it("runs the rest as an async Deno test named by the file and its lines, its code unchanged", () => {
    const [first, second] = examples.map((example) => example.source);
    assert.match(first, /Deno\.test\("math\.ts#4-15", async \(\) => \{\n\nconst pair: Pair = \[1, 2\];\n/);
    assert.ok(first.includes("assert.equal(add(...pair), 3);\n});"), first);
    assert.ok(second.includes("console.log(add(2, 3) * 2);"), "a `*` inside the code is kept");
  });

  // Deno's own `--doc` run gives each example an isolate of its own and compiles the SDK's graph for each: about
  // 15 s of CPU, several times that beside a loaded CI run's other lanes (a first run took over 30 s).
  it("finds the blocks Deno finds in the SDK's sources, named as Deno names them", { timeout: 300_000 }, async () => {
    // Files with several examples in several comments, and one with `ts ignore` fences only.
    const files = ["mod.ts", "src/tool/define-tool.ts", "src/server/server.ts", "src/skills/mod.ts"];
    const deno = await run(DENO, ["test", "-A", "--no-check", "--doc", ...files], 280_000, ROOT);
    assert.equal(deno.code, 0, deno.stderr);
    const ran = [...deno.stdout.replace(ANSI, "").matchAll(/^running 1 test from \.\/(\S+)\.ts$/gm)].map((m) => m[1]);
    assert.ok(ran.length >= 10, deno.stdout);
    assert.deepEqual(docExamples(files, ROOT).map((example) => example.name).sort(), ran.sort());
  });

  it("writes modules that run: an example that fails fails its test", { timeout: 120_000 }, async () => {
    const broken = SOURCE.replace("assert.equal(add(...pair), 3);", "assert.equal(add(...pair), 4);");
    writeFileSync(join(dir, "broken.ts"), broken);
    writeFileSync(join(dir, "setup.ts"), "");
    const [first] = docExamples(["broken.ts"], dir);
    writeFileSync(join(dir, "example.test.ts"), first.source);
    const tested = await run(DENO, ["test", "-A", "--no-check", join(dir, "example.test.ts")], 110_000, ROOT);
    assert.notEqual(tested.code, 0, tested.stdout);
    assert.match(tested.stdout.replace(ANSI, ""), /broken\.ts#4-15 \.\.\. FAILED/);
  });
});
