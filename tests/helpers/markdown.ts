/**
 * The TypeScript blocks of a Markdown file (README.md, the pages under docs/), with the markers the
 * README and docs tests read on the line before a block: `<!-- not-checked: why -->` for a block that is
 * deliberately partial, and `<!-- file: server.ts -->` to name the block's file, so that another block
 * can import it. A fence written ```ts ignore is not TypeScript to check either (its info string says so).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { entryPointImports } from "./entry-points.ts";
import { ROOT } from "./process.ts";

/** One ```ts block of a Markdown file. */
export interface Block {
  /** The line of its opening fence (1-based). */
  line: number;
  /** The file it is checked as. */
  file: string;
  /** Its code, without the fence's indentation. */
  code: string;
  /** Why it is not checked, when it says so. */
  notChecked?: string;
}

/**
 * Reads the ```ts blocks of a Markdown text, with their markers.
 *
 * @param markdown The text.
 * @param source Its name, for messages and for the files of unnamed blocks (`README.md` → `readme-line-12.ts`).
 * @returns The blocks, in order.
 */
export function tsBlocks(markdown: string, source = "README.md"): Block[] {
  const prefix = source.replace(/\.md$/, "").replace(/[^\w-]+/g, "-").toLowerCase();
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)(.*)$/.exec(lines[i]);
    if (open === null) continue;
    const end = lines.findIndex((text, j) => j > i && /^\s*```\s*$/.test(text));
    assert.ok(end > i, `${source} line ${i + 1}: a code block that never closes`);
    const ignored = /\bignore\b/.test(open[3]);
    if ((open[2] === "ts" || open[2] === "typescript") && !ignored) {
      const before = lines.slice(0, i).findLast((text) => text.trim() !== "")?.trim() ?? "";
      const named = /^<!-- file: ([\w.-]+\.ts) -->$/.exec(before)?.[1];
      const notChecked = /^<!-- not-checked: (.*) -->$/.exec(before)?.[1];
      assert.notEqual(notChecked?.trim(), "", `${source} line ${i + 1}: not-checked needs a reason`);
      const code = lines.slice(i + 1, end).map((text) => text.slice(Math.min(open[1].length, indent(text))));
      blocks.push({ line: i + 1, file: named ?? `${prefix}-line-${i + 1}.ts`, code: code.join("\n"), notChecked });
    }
    i = end;
  }
  return blocks;
}

function indent(text: string): number {
  return text.length - text.trimStart().length;
}

/**
 * The Markdown files under a folder, recursively, as paths relative to it, sorted; folders whose names
 * start with a dot or `node_modules` are left out (docs/.vitepress holds the build).
 *
 * @param dir The folder.
 * @returns The relative paths.
 */
export function markdownFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (sub: string) => {
    for (const entry of readdirSync(`${dir}/${sub}`, { withFileTypes: true })) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const path = sub === "" ? entry.name : `${sub}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) found.push(path);
    }
  };
  walk("");
  return found.sort();
}

/**
 * Makes `dir` a project that installed what the examples import, as a reader's would be: `@mcplite/sdk`
 * and its entry points mapped to this checkout's sources (deno.json `exports`), the package's dependencies and devDependencies (redis, Connect's Node transport, the peers a
 * migration page shows) from this repository's node_modules.
 *
 * @param dir An empty folder.
 */
export function exampleProject(dir: string): void {
  const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8"));
  const imports = entryPointImports();
  writeFileSync(join(dir, "deno.json"), JSON.stringify({ imports, unstable: ["kv", "no-legacy-abort"] }));
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ type: "module", dependencies: { ...pkg.dependencies, ...pkg.devDependencies } }),
  );
  symlinkSync(`${ROOT}node_modules`, join(dir, "node_modules"), "dir");
}
