/**
 * Module headers stay short: the `/** … @module *\/` block at the top of every src file says in a few
 * lines what the file is and why it exists; design reasoning, runtime quirks and measured trade-offs
 * live on a page of docs/ (most under docs/concepts/), linked from the header in one line ("Why: docs/…").
 * Code blocks (`@example`s, run by the doc tests, and usage lines) are not counted: they are documentation.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ROOT } from "../helpers/process.ts";

/**
 * Lines of prose a header may hold before `@module`. Six: a sentence of what the file is, a few of why,
 * the specs it follows and one "Why:" link; the headers that stayed readable this way run 1 to 6 lines.
 */
const LIMIT = 6;

/**
 * Files still over {@link LIMIT}, each to be shortened (and its essay moved to docs/concepts/): the
 * allowlist only shrinks, and a file moved or shortened must leave it. These were being moved or
 * rewritten by other work (the long-running engine, the MCP-lite table, the runtime folders) when the
 * limit came in.
 */
const OVER: ReadonlySet<string> = new Set([]);

/** Every TypeScript file under src/, relative to the repository, generated code left out. */
function sources(dir = "src"): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return path === "src/gen" ? [] : sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

interface Header {
  /** The lines of prose before `@module`, code blocks (examples, usage) left out. */
  readonly prose: readonly string[];
}

/** A file's module header: its first doc comment (after a `#!` line and `//` lines), if it has `@module`. */
function header(text: string): Header | undefined {
  const found = text.match(/^(?:#![^\n]*\n)?(?:\s*\/\/[^\n]*\n)*\s*\/\*\*([\s\S]*?)\*\//);
  if (found === null || !found[1].includes("@module")) return undefined;
  const lines = found[1].split("@module")[0].split("\n").map((line) => line.replace(/^\s*\*\s?/, "").trimEnd());
  const prose: string[] = [];
  let inFence = false;
  for (const line of lines) {
    if (line.startsWith("```")) inFence = !inFence;
    else if (!inFence && !line.startsWith("@example") && line.trim() !== "") prose.push(line);
  }
  return { prose };
}

const headers = sources().map((file) => ({ file, header: header(readFileSync(join(ROOT, file), "utf8")) }));

describe("module headers", () => {
  it("are found on the files of src/", () => {
    assert.ok(headers.filter((h) => h.header).length >= 300, `${headers.length} files`);
  });

  it(`hold at most ${LIMIT} lines of prose before @module`, () => {
    const over = headers.filter((h) => (h.header?.prose.length ?? 0) > LIMIT && !OVER.has(h.file))
      .map((h) => `${h.file}: ${h.header!.prose.length} lines`);
    assert.deepEqual(over, [], "shorten them; the reasoning goes to a page of docs/concepts/");
  });

  it("leave the allowlist only with files still over the limit", () => {
    const shortened = [...OVER].filter((file) => {
      const found = headers.find((h) => h.file === file);
      return found === undefined || (found.header?.prose.length ?? 0) <= LIMIT;
    });
    assert.deepEqual(shortened, [], "take them off OVER in this test");
  });

  it('link, after "Why:", pages of docs/ that exist', () => {
    const broken = headers.flatMap(({ file, header }) =>
      [...(header?.prose.join("\n") ?? "").matchAll(/Why: (docs\/[\w./-]+\.md)/g)]
        .map((m) => m[1])
        .filter((page) => !existsSync(join(ROOT, page)))
        .map((page) => `${file}: ${page}`)
    );
    assert.deepEqual(broken, []);
  });
});
