/**
 * Agent Skills over MCP (SEP-2640, the `io.modelcontextprotocol/skills` extension): skills defined in
 * memory or read from a directory, served with `server.skill(skill)` through `skills/list`,
 * `skills/get` and `resources/read` (`skill://` URIs).
 *
 * @example
 * ```ts ignore
 * import { createServer } from "@mcplite/sdk";
 * import { skillsFromDirectory } from "@mcplite/sdk/skills";
 *
 * const server = createServer({ name: "skills", version: "1.0.0" });
 * for (const skill of await skillsFromDirectory("./skills")) server.skill(skill);
 * ```
 *
 * @module
 */
export { defineSkill, skillFromDirectory, skillsFromDirectory } from "../assembly/served-skills.ts";
export type { SkillSource } from "./define-skill.ts";
export type { Skill, SkillFile } from "../core/definitions/skill.ts";
