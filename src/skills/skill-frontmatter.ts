/**
 * The YAML frontmatter of a `SKILL.md` (Agent Skills specification; SEP-2640, `SKILL.md`): parsed once,
 * served as it is, and checked for what the specification requires: a `name` that follows the naming
 * rules and a non-empty `description`.
 *
 * @module
 */
import { readFrontmatter } from "../internal/frontmatter.ts";
import { isObject } from "../internal/is-object.ts";

export { readFrontmatter };

// Agent Skills specification, naming rules: 1-64 characters, lowercase letters, digits and hyphens,
// no leading, trailing or consecutive hyphens.
const NAME = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;

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
