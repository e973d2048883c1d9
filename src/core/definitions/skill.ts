/**
 * An Agent Skill as the server holds it (SEP-2640, the `io.modelcontextprotocol/skills` extension): its
 * name, the frontmatter of its `SKILL.md`, and its files with their digests and sizes, computed once
 * when the skill is defined. `defineSkill()` and `skillFromDirectory()` (`@mcplite/sdk/skills`) make one.
 * Declared beside `Extension` (`./extension.ts`): a skill names the extension that serves it, whose
 * handlers read the skills served, and two files would import each other.
 *
 * @module
 */
export type { Skill, SkillFile } from "./extension.ts";
