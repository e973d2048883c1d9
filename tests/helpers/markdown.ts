/**
 * The TypeScript blocks of a Markdown file (README.md, the pages under docs/), with the markers the
 * README and docs tests read on the line before a block: `<!-- not-checked: why -->` for a block that is
 * deliberately partial, `<!-- file: server.ts -->` to name the block's file, so that another block
 * can import it, and `<!-- not-run: why -->` for a block that calls a server on this machine but is only
 * illustrative (type-checked, not run; tests/docs/run-against-server.test.ts runs the others). Markers stack,
 * one a line. A fence written ```ts ignore is not TypeScript to check either (its info string says so).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { describe, it } from "node:test";
import { entryPointImports } from "./entry-points.ts";
import { ROOT, run } from "./process.ts";
import { scratchDir } from "./scratch-dir.ts";

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
  /** Why a block that calls a server on this machine is not run against it (tests/docs/run-against-server.test.ts). */
  notRun?: string;
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
      const markers = markersBefore(lines, i);
      const named = markers.map((m) => /^<!-- file: ([\w.-]+\.ts) -->$/.exec(m)?.[1]).find(Boolean);
      const notChecked = markers.map((m) => /^<!-- not-checked: (.*) -->$/.exec(m)?.[1]).find((m) => m !== undefined);
      const notRun = markers.map((m) => /^<!-- not-run: (.*) -->$/.exec(m)?.[1]).find((m) => m !== undefined);
      assert.notEqual(notChecked?.trim(), "", `${source} line ${i + 1}: not-checked needs a reason`);
      assert.notEqual(notRun?.trim(), "", `${source} line ${i + 1}: not-run needs a reason`);
      const code = lines.slice(i + 1, end).map((text) => text.slice(Math.min(open[1].length, indent(text))));
      blocks.push({
        line: i + 1,
        file: named ?? `${prefix}-line-${i + 1}.ts`,
        code: code.join("\n"),
        notChecked,
        notRun,
      });
    }
    i = end;
  }
  return blocks;
}

/** One ```sh block of a Markdown file: commands a reader runs in a terminal. */
export interface ShellBlock {
  /** The line of its opening fence (1-based). */
  line: number;
  /** Its commands, without the fence's indentation. */
  code: string;
  /** The server it runs against, when it says so: a named block (`server.ts`) or a repository file. */
  runAgainst?: string;
  /** Why a block that calls a server on this machine is not run against it. */
  notRun?: string;
}

/**
 * Reads the ```sh (or ```bash) blocks of a Markdown text, with their markers: `<!-- run-against: server.ts -->` (a
 * named block, or a repository file such as `examples/webtools.ts`) and `<!-- not-run: why -->`.
 *
 * @param markdown The text.
 * @param source Its name, for messages.
 * @returns The blocks, in order.
 */
export function shellBlocks(markdown: string, source: string): ShellBlock[] {
  const lines = markdown.split("\n");
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)(.*)$/.exec(lines[i]);
    if (open === null) continue;
    const end = lines.findIndex((text, j) => j > i && /^\s*```\s*$/.test(text));
    assert.ok(end > i, `${source} line ${i + 1}: a code block that never closes`);
    if (open[2] === "sh" || open[2] === "bash") {
      const markers = markersBefore(lines, i);
      const runAgainst = markers.map((m) => /^<!-- run-against: (\S+) -->$/.exec(m)?.[1]).find(Boolean);
      const notRun = markers.map((m) => /^<!-- not-run: (.*) -->$/.exec(m)?.[1]).find((m) => m !== undefined);
      assert.notEqual(notRun?.trim(), "", `${source} line ${i + 1}: not-run needs a reason`);
      const code = lines.slice(i + 1, end).map((text) => text.slice(Math.min(open[1].length, indent(text))));
      blocks.push({ line: i + 1, code: code.join("\n"), runAgainst, notRun });
    }
    i = end;
  }
  return blocks;
}

/** The `<!-- … -->` lines right above line `i`, blank lines between them skipped. */
function markersBefore(lines: string[], i: number): string[] {
  const markers: string[] = [];
  for (let j = i - 1; j >= 0; j--) {
    const text = lines[j].trim();
    if (text === "") continue;
    if (!/^<!-- .* -->$/.test(text)) break;
    markers.unshift(text);
  }
  return markers;
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

/**
 * The section of a page under a `## ` heading, up to the next one; the lines before it blank, so that its blocks keep
 * their line numbers.
 *
 * @param markdown The page.
 * @param heading The heading's text.
 * @param source The page's name, for the message when it has no such section.
 */
export function markdownSection(markdown: string, heading: string, source: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `${source} has a "## ${heading}" section`);
  const next = markdown.indexOf("\n## ", start + 1);
  return "\n".repeat(markdown.slice(0, start).split("\n").length - 1) +
    markdown.slice(start, next === -1 ? undefined : next);
}

/**
 * Runs a page's section as written: each TypeScript block under `## {heading}` is saved in a project that maps
 * `@mcplite/sdk` to this checkout ({@link exampleProject}) and must exit 0 (its own assertions pass) on Deno and on
 * Bun. Every docs block is type-checked once, with the others (tests/docs/code-blocks.test.ts), so these only run.
 * Declares the tests itself: call it at the top level of a test file.
 *
 * @param options `files`: what the blocks read, by name in the project, with their text (a file the page tells its
 *   reader to save); `skip`: why the section cannot run here (a prerequisite missing outside CI); `denoUnderTestAll`:
 *   run on Deno only under `npm run test:all`, for a section whose subject runs alike on each runtime and whose blocks
 *   are long (each run is a process of its own).
 */
export function describeSectionRuns(
  page: string,
  heading: string,
  shows: RegExp,
  options: {
    readonly files?: Readonly<Record<string, string>>;
    readonly skip?: string | false;
    readonly denoUnderTestAll?: boolean;
  } = {},
): void {
  describe(`${page}, "${heading}"`, { skip: options.skip ?? false }, () => {
    const blocks = tsBlocks(markdownSection(readFileSync(`${ROOT}${page}`, "utf8"), heading, page), page);
    const dir = scratchDir("mcplite-section-");
    exampleProject(dir);
    for (const [name, text] of Object.entries(options.files ?? {})) writeFileSync(join(dir, name), text);
    const paths = Object.fromEntries(
      Object.entries(entryPointImports()).map(([name, url]) => [name, [new URL(url).pathname]]),
    );
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, paths } }));
    for (const block of blocks) writeFileSync(join(dir, block.file), `${block.code}\n`);

    it("has a runnable example", () => {
      assert.ok(blocks.length >= 1);
      assert.match(blocks[0].code, shows);
    });

    for (const runtime of ["deno", "bun"] as const) {
      const skip = runtime === "deno" && options.denoUnderTestAll === true &&
        process.env.MCPLITE_EVERY_RUNTIME !== "1" &&
        "its subject runs alike on each runtime: on Deno under npm run test:all (MCPLITE_EVERY_RUNTIME=1)";
      it(`runs on ${runtime}`, { timeout: 120_000, skip }, async () => {
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
