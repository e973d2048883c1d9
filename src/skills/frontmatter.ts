/**
 * The YAML frontmatter of a `SKILL.md` (Agent Skills specification; SEP-2640, `SKILL.md`): parsed once,
 * served as it is, and checked for what the specification requires: a `name` that follows the naming
 * rules and a non-empty `description`.
 *
 * @module
 */
import { parse } from "yaml";
import { isObject } from "../internal/is-object.ts";

// Agent Skills specification, naming rules: 1-64 characters, lowercase letters, digits and hyphens,
// no leading, trailing or consecutive hyphens.
const NAME = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;
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

/**
 * Reads and checks a skill's frontmatter.
 *
 * @param text The `SKILL.md`.
 * @param where The skill, for messages (a directory or a name).
 * @returns The frontmatter, with its `name`.
 * @throws {TypeError} Naming the skill and what is wrong.
 */
export function checkedFrontmatter(
  text: string,
  where: string,
): { frontmatter: Record<string, unknown>; name: string } {
  const frontmatter = readFrontmatter(text);
  if (frontmatter === undefined) {
    throw new TypeError(`skill ${where}: SKILL.md must begin with a YAML frontmatter block (--- … ---)`);
  }
  const { name, description } = frontmatter;
  if (typeof name !== "string" || !NAME.test(name)) {
    throw new TypeError(
      `skill ${where}: frontmatter name ${
        JSON.stringify(name)
      } must be 1-64 lowercase letters, digits and single hyphens`,
    );
  }
  if (typeof description !== "string" || description.trim() === "") {
    throw new TypeError(`skill ${where}: frontmatter needs a non-empty description`);
  }
  for (const key of Object.keys(isObject(frontmatter.metadata) ? frontmatter.metadata : {})) {
    if (key.startsWith("io.modelcontextprotocol/")) {
      throw new TypeError(`skill ${where}: metadata key ${key} uses the prefix reserved for MCP extensions`);
    }
  }
  return { frontmatter, name };
}
