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
  return splitFrontmatter(text)?.frontmatter;
}

/** A Markdown file split at the end of its frontmatter block. */
export interface SplitMarkdown {
  /** The frontmatter, parsed. */
  readonly frontmatter: Record<string, unknown>;
  /** What follows the block, without the blank lines that start it. */
  readonly body: string;
}

/**
 * Splits a `SKILL.md` into its frontmatter (as data) and its body (the instructions).
 *
 * @param text The file.
 * @returns Both parts, or `undefined` when there is no frontmatter or it is not a YAML mapping.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitFrontmatter } from "./frontmatter.ts";
 * const file = ["---", "name: pdf", "---", "", "# PDF", ""].join(String.fromCharCode(10));
 * const split = splitFrontmatter(file);
 * assert.deepEqual(split?.frontmatter, { name: "pdf" });
 * assert.equal(split?.body.trim(), "# PDF");
 * ```
 */
export function splitFrontmatter(text: string): SplitMarkdown | undefined {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const match = BLOCK.exec(source);
  if (match === null) return undefined;
  let value: unknown;
  try {
    value = parse(match[1]);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  return {
    frontmatter: value as Record<string, unknown>,
    body: source.slice(match[0].length).replace(/^(?:\r?\n)+/, ""),
  };
}
