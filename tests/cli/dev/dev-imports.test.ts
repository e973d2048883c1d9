/**
 * The files `mcplite dev` watches: a module's local imports followed file by file, as each runtime
 * resolves them (`.ts` as written, `.js` naming `.ts`, Bun's extensionless and folder forms), through
 * re-exports and literal `import()`; packages, remote modules and commented-out imports left out; a
 * file that does not exist yet kept, since creating it is a change.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { changedFiles, importGraph } from "../../../src/cli/dev/dev-imports.ts";
import { scratchDir } from "../../helpers/scratch-dir.ts";

describe("the dev loop's import graph", () => {
  const dir = scratchDir("mcplite-dev-graph-");
  const write = (file: string, text: string) => {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), text);
  };

  it("follows relative imports in every form a runtime resolves, and nothing else", async () => {
    write(
      "server.ts",
      `import * as v from "valibot";
import { a } from "./a.ts";
import { b } from "./lib/b.js";
export { c } from "./c";
import "./side-effect.ts";
import type { T } from "./types.ts";
// import { gone } from "./commented.ts";
/* import { gone2 } from "./commented2.ts"; */
const later = () => import("./lazy.ts");
import data from "./data.json" with { type: "json" };
import { x } from "npm:zod";
import { y } from "https://example.com/y.ts";
import { missing } from "./not-yet.ts";
`,
    );
    write("a.ts", `import { shared } from "./lib/index.ts";\nexport const a = shared;\n`);
    write("lib/b.ts", `export const b = 1;\n`);
    write("lib/index.ts", `export const shared = 1;\n`);
    write("c/index.ts", `export const c = 1;\n`);
    write("side-effect.ts", ``);
    write("types.ts", `export type T = 1;\n`);
    write("lazy.ts", `export {};\n`);
    write("data.json", `{}`);
    const graph = await importGraph(join(dir, "server.ts"));
    const files = [...graph.keys()].map((f) => f.slice(dir.length + 1)).sort();
    assert.deepEqual(files, [
      "a.ts",
      "c/index.ts",
      "data.json",
      "lazy.ts",
      "lib/b.ts",
      "lib/index.ts",
      "not-yet.ts",
      "server.ts",
      "side-effect.ts",
      "types.ts",
    ]);
    assert.equal(graph.get(join(dir, "not-yet.ts")), undefined);
    assert.equal(graph.get(join(dir, "lib/b.ts")), "export const b = 1;\n");
  });

  it("leaves out the files it is told to skip (the SDK's own), and tells which files changed", async () => {
    write("main.ts", `import "./keep.ts";\nimport "./sdk/mod.ts";\n`);
    write("keep.ts", `export {};\n`);
    write("sdk/mod.ts", `import "./deep.ts";\n`);
    const skip = (file: string) => file.startsWith(join(dir, "sdk"));
    const before = await importGraph(join(dir, "main.ts"), skip);
    assert.deepEqual([...before.keys()].map((f) => f.slice(dir.length + 1)), ["main.ts", "keep.ts"]);
    write("keep.ts", `export const changed = true;\n`);
    const after = await importGraph(join(dir, "main.ts"), skip);
    assert.deepEqual(changedFiles(before, after), [join(dir, "keep.ts")]);
    assert.deepEqual(changedFiles(after, await importGraph(join(dir, "main.ts"), skip)), []);
  });
});
