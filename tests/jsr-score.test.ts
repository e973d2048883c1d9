/**
 * What JSR reads when it scores and documents the package: each entry point's module doc must be prose
 * JSR shows (a first line that begins with `@` is read as an unknown tag and dropped), and every dynamic
 * import must name its module literally, or `deno publish` warns `unanalyzable-dynamic-import` and
 * cannot rewrite it.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { nonLiteralImports, sourceFiles } from "./helpers/import-graph.ts";
import { ROOT, run } from "./helpers/process.ts";

const DENO = `${ROOT}node_modules/.bin/deno`;
const entries: string[] = Object.values(JSON.parse(readFileSync(`${ROOT}jsr.json`, "utf8")).exports);

interface ModuleDoc {
  doc?: string;
  tags?: { kind: string }[];
}

describe("the package as JSR reads it", () => {
  it("documents every entry point with prose, not an unknown tag", async () => {
    const { code, stdout, stderr } = await run(DENO, ["doc", "--json", ...entries], 60_000);
    assert.equal(code, 0, stderr);
    const nodes: Record<string, { module_doc?: ModuleDoc }> = JSON.parse(stdout).nodes;
    for (const entry of entries) {
      const doc: ModuleDoc = nodes[new URL(entry, `file://${ROOT}`).href]?.module_doc ?? {};
      assert.ok(doc.doc?.trim(), `${entry} has no module doc JSR would show`);
      assert.deepEqual(doc.tags?.filter((t) => t.kind === "unsupported") ?? [], [], `${entry}: an unknown tag`);
    }
  });

  it("names every dynamically imported module literally", () => {
    // `mcplite dev`, `mcplite server-json` and `mcplite worker` load the user's server module, whose URL only the command line names.
    const COMPUTED: Record<string, string[]> = {
      "src/cli/dev/dev-child.ts": ["moduleUrl"],
      "src/cli/server-json.ts": ["url.href"],
      "src/cli/server-module.ts": ["url.href"],
    };
    for (const file of ["mod.ts", ...sourceFiles("src")]) {
      const text = readFileSync(join(ROOT, file), "utf8");
      assert.deepEqual(
        nonLiteralImports(text),
        COMPUTED[file] ?? [],
        `${file} imports a computed specifier: deno publish cannot analyse it`,
      );
    }
  });
});
