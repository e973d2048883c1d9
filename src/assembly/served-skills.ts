/**
 * Skills, served: the wire-free skill builders (`src/skills/`) given what serves skills: the Skills
 * extension (SEP-2640), made with the public `defineExtension()` as any extension is, and MCP's
 * `resources/*` methods for the `skill://` files. The definition declares what it is; this file wires it
 * to what serves it, so a server without skills does not load or bundle that code (`src/core/definitions/feature.ts`).
 *
 * @module
 */
import type { Featured } from "../core/definitions/feature.ts";
import type { Skill } from "../core/definitions/skill.ts";
import { RESOURCES_ON_MCP } from "../bindings/mcp/resources.ts";
import { SKILLS_EXTENSION } from "../internal/mcp-wire.ts";
import { defineSkill as skillOfFiles } from "../skills/define-skill.ts";
import { skillFromDirectory as readSkill, skillsFromDirectory as readSkills } from "../skills/from-directory.ts";
import { directoryRead, skillsGet, skillsList } from "../skills/skills-methods.ts";
import { defineExtension } from "./served-extensions.ts";
import { skillFileResource } from "../server/skill-files.ts";

/** Any params object: each method reads its own (the cursor is the page's). */
const PARAMS = { type: "object" };

/**
 * The Skills extension (SEP-2640): `skills/list`, `skills/get`, and `resources/directory/read` (answered
 * when the server's `directoryRead` setting is on, `mcpBinding({ directoryRead: true })`).
 */
const SKILLS = defineExtension(SKILLS_EXTENSION)
  .method("skills/list", PARAMS, skillsList)
  .method("skills/get", PARAMS, skillsGet)
  .method("resources/directory/read", PARAMS, directoryRead);

/**
 * What serves a skill: the Skills extension, MCP's methods for resources, and what makes its files the resources
 * `server.skill()` registers (at `skill://<name>/<path>`).
 */
export const SKILLS_SERVED_BY: Featured = {
  features: [RESOURCES_ON_MCP, { fileResource: skillFileResource }],
  extensions: [SKILLS],
};

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
