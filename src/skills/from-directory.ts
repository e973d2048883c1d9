/**
 * Skills from the file system (Deno, Bun and Node, through their `node:fs` module, loaded only when a
 * directory is read): a directory holding `SKILL.md` and any files beneath it is one skill; a
 * directory of such directories is a set of skills.
 *
 * @module
 */
import type { Featured } from "../core/definitions/feature.ts";
import type { Skill } from "../core/definitions/skill.ts";
import { assembleSkill, type SkillSource } from "./define-skill.ts";

interface Stats {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  size: number;
}

interface Fs {
  readdir(path: string): Promise<string[]>;
  lstat(path: string): Promise<Stats>;
  readFile(path: string): Promise<Uint8Array>;
}

async function fs(): Promise<Fs> {
  // Loaded on first use: hosts without a file system (Workers) never load it unless a directory is read.
  return await import("node:fs/promises");
}

function join(dir: string, name: string): string {
  return dir.endsWith("/") ? dir + name : `${dir}/${name}`;
}

function baseName(path: string): string {
  const trimmed = path.replace(/[/\\]+$/, "");
  return trimmed.slice(Math.max(trimmed.lastIndexOf("/"), trimmed.lastIndexOf("\\")) + 1);
}

/**
 * Reads one skill from its directory, served by `servedBy`: the wire-free reader behind the public
 * `skillFromDirectory()` (`src/assembly/served-skills.ts`).
 *
 * @param directory The skill's directory; its name must equal the frontmatter `name`.
 * @param servedBy The features that serve it and the extensions it needs (`src/core/definitions/feature.ts`).
 * @returns The skill.
 * @throws {TypeError} For a missing or invalid `SKILL.md`, a name mismatch, or a skill over the limits.
 */
export async function skillFromDirectory(directory: string, servedBy: Featured): Promise<Skill> {
  const files = await fs();
  const sources: SkillSource[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    for (const name of (await files.readdir(dir)).sort()) {
      const path = join(dir, name);
      const stats = await files.lstat(path);
      if (stats.isSymbolicLink()) continue; // never followed
      if (stats.isDirectory()) await walk(path, `${prefix}${name}/`);
      else if (stats.isFile()) {
        sources.push({
          path: prefix + name,
          size: stats.size,
          read: () => files.readFile(path),
        });
      }
    }
  };
  await walk(directory, "");
  return await assembleSkill(sources, baseName(directory), servedBy);
}

/**
 * Reads every skill in a directory, served by `servedBy`: the wire-free reader behind the public
 * `skillsFromDirectory()` (`src/assembly/served-skills.ts`).
 *
 * @param root The directory of skills.
 * @param servedBy The features that serve them and the extensions they need (`src/core/definitions/feature.ts`).
 * @returns The skills, by directory name.
 * @throws {TypeError} When a skill is invalid (naming it).
 */
export async function skillsFromDirectory(root: string, servedBy: Featured): Promise<Skill[]> {
  const files = await fs();
  const skills: Skill[] = [];
  for (const name of (await files.readdir(root)).sort()) {
    const dir = join(root, name);
    const stats = await files.lstat(dir);
    if (!stats.isDirectory()) continue;
    const entries = await files.readdir(dir);
    if (entries.includes("SKILL.md")) skills.push(await skillFromDirectory(dir, servedBy));
  }
  return skills;
}
