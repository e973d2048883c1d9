/**
 * A skill's files as the static resources a server serves at `skill://<name>/<path>` (SEP-2640).
 *
 * @module
 */
import type { Skill, SkillFile } from "../core/definitions/skill.ts";
import type { AnyResource } from "../core/definitions/resource.ts";

/** Decodes a skill's text files (valid UTF-8, checked when the skill was defined). */
const TEXT = new TextDecoder();

/**
 * A skill's file as a static resource. Built as a plain object rather than with `defineResource()`, so
 * that a server without resources does not carry the resource builder and its URI templates.
 */
export function skillFileResource(skill: Skill, file: SkillFile): AnyResource {
  const main = file.path === "SKILL.md";
  return Object.freeze({
    uri: file.uri,
    template: undefined,
    name: main ? skill.name : `${skill.name}/${file.path}`,
    title: undefined,
    description: main ? String(skill.frontmatter.description) : undefined,
    mimeType: file.mimeType,
    size: file.size,
    annotations: undefined,
    meta: undefined,
    cache: undefined,
    completers: undefined,
    read: async () => file.text ? TEXT.decode(await file.read()) : await file.read(),
  });
}
