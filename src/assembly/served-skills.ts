/**
 * Skills, served: the wire-free skill builders (`src/skills/`) given the features of the bindings that
 * serve skills (MCP's `skills/*` methods and the `resources/*` methods for `skill://` files). The
 * definition declares what it is; this file wires it to what serves it, so a server without skills
 * does not load or bundle that code (`src/core/feature.ts`).
 *
 * @module
 */
import type { Skill } from "../core/skill.ts";
import { RESOURCES_ON_MCP } from "../bindings/mcp/resources.ts";
import { SKILLS_ON_MCP } from "../bindings/mcp/skills.ts";
import { defineSkill as skillOfFiles } from "../skills/define-skill.ts";
import { skillFromDirectory as readSkill, skillsFromDirectory as readSkills } from "../skills/from-directory.ts";

/** What serves a skill: the MCP methods for skills, and those for resources (its `skill://` files). */
export const SKILLS_SERVED_BY = [SKILLS_ON_MCP, RESOURCES_ON_MCP];

/**
 * Defines a skill from files in memory: `SKILL.md` (required, with `name` and `description` in its
 * frontmatter) and any others, by path.
 *
 * @param files The files: path → text or bytes.
 * @returns The skill, with digests and sizes.
 * @throws {TypeError} For a missing or invalid `SKILL.md`, a path that leaves the skill, or one over the limits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineSkill } from "./served-skills.ts";
 * const skill = await defineSkill({
 *   "SKILL.md": "---\nname: greet\ndescription: Greets people politely\n---\nSay hello.\n",
 *   "references/phrases.md": "Hello! Good morning!\n",
 * });
 * assert.equal(skill.uri, "skill://greet/SKILL.md");
 * assert.match(skill.files[1].digest, /^sha256:[0-9a-f]{64}$/);
 * ```
 */
export async function defineSkill(files: Readonly<Record<string, string | Uint8Array>>): Promise<Skill> {
  return await skillOfFiles(files, SKILLS_SERVED_BY);
}

/**
 * Reads one skill from its directory: `SKILL.md` and every file beneath it. Symbolic links are not
 * followed (a link could lead out of the skill); each file is read again when served, so large files
 * are not held in memory.
 *
 * @param directory The skill's directory; its name must equal the frontmatter `name`.
 * @returns The skill.
 * @throws {TypeError} For a missing or invalid `SKILL.md`, a name mismatch, or a skill over the limits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { skillFromDirectory } from "./served-skills.ts";
 * const skill = await skillFromDirectory(new URL("../../examples/skills/release-notes", import.meta.url).pathname);
 * assert.equal(skill.uri, "skill://release-notes/SKILL.md");
 * ```
 */
export async function skillFromDirectory(directory: string): Promise<Skill> {
  return await readSkill(directory, SKILLS_SERVED_BY);
}

/**
 * Reads every skill in a directory: each subdirectory holding a `SKILL.md` is one.
 *
 * @param root The directory of skills.
 * @returns The skills, by directory name.
 * @throws {TypeError} When a skill is invalid (naming it).
 */
export async function skillsFromDirectory(root: string): Promise<Skill[]> {
  return await readSkills(root, SKILLS_SERVED_BY);
}
