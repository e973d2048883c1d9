/**
 * The YAML frontmatter block at the start of a Markdown file (Agent Skills: `SKILL.md`), parsed with
 * `yaml`. Shared by the server (which checks it) and the client (which compares it with the entry it
 * was listed with, SEP-2640).
 *
 * @module
 */
import { parse } from "yaml";
import { isObject } from "./is-object.ts";

const BLOCK = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Reads the frontmatter block at the start of a `SKILL.md` (a byte-order mark before it is ignored).
 *
 * @param text The file.
 * @returns The frontmatter object, or `undefined` when there is none or it is not a YAML mapping.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readFrontmatter } from "./frontmatter.ts";
 * assert.deepEqual(readFrontmatter("---\nname: pdf\ndescription: Reads PDFs\n---\n# PDF"), {
 *   name: "pdf",
 *   description: "Reads PDFs",
 * });
 * assert.equal(readFrontmatter("# no frontmatter"), undefined);
 * ```
 */
export function readFrontmatter(text: string): Record<string, unknown> | undefined {
  const match = BLOCK.exec(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (match === null) return undefined;
  try {
    const value = parse(match[1]);
    return isObject(value) ? value as Record<string, unknown> : undefined;
  } catch {
    return undefined;
  }
}
