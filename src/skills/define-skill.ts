/**
 * `defineSkill()`: a skill from files in memory (for Workers and other hosts without a file system),
 * with every file's SHA-256 digest and size computed once, here (SEP-2640, skill entries).
 *
 * @module
 */
import type { Featured } from "../core/definitions/feature.ts";
import type { Skill, SkillFile } from "../core/definitions/skill.ts";
import { sha256Hex } from "../internal/sha256.ts";
import { checkedFrontmatter } from "./skill-frontmatter.ts";
import { mimeTypeOf } from "./mime.ts";

/** What serves a skill: the MCP methods for skills, and for resources (its files are resources). */
/** The most files, and bytes, a skill may hold (SEP-2640: 512 resources, 16 MiB). */
export const SKILL_LIMITS: { readonly files: number; readonly bytes: number } = Object.freeze({
  files: 512,
  bytes: 16 * 1024 * 1024,
});

const encoder = new TextEncoder();
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** What a file of a skill is made from: its bytes now, or a way to read them (and their size) later. */
export interface SkillSource {
  /** The file's path inside the skill. */
  readonly path: string;
  /** Its size in bytes. */
  readonly size: number;
  /** Reads its bytes. */
  read(): Promise<Uint8Array>;
}

/**
 * Defines a skill from files in memory, served by `servedBy`: the wire-free builder behind the public
 * `defineSkill()` (`src/assembly/served-skills.ts`).
 *
 * @param files The files: path → text or bytes.
 * @param servedBy The features that serve it and the extensions it needs (`src/core/definitions/feature.ts`).
 * @returns The skill, with digests and sizes.
 * @throws {TypeError} For a missing or invalid `SKILL.md`, a path that leaves the skill, or one over the limits.
 */
export async function defineSkill(
  files: Readonly<Record<string, string | Uint8Array>>,
  servedBy: Featured,
): Promise<Skill> {
  const sources = Object.entries(files).map(([path, content]): SkillSource => {
    const bytes = typeof content === "string" ? encoder.encode(content) : content;
    return { path, size: bytes.byteLength, read: () => Promise.resolve(bytes) };
  });
  return await assembleSkill(sources, undefined, servedBy);
}

/**
 * Builds a skill from its files' sources: checks `SKILL.md` and the paths, hashes every file once.
 *
 * @param sources The files.
 * @param directoryName The name of the directory it came from, which must equal the skill's `name`.
 * @param servedBy The features that serve it and the extensions it needs (`src/core/definitions/feature.ts`).
 * @returns The skill.
 * @throws {TypeError} Naming the skill and what is wrong.
 */
export async function assembleSkill(
  sources: readonly SkillSource[],
  directoryName: string | undefined,
  servedBy: Featured,
): Promise<Skill> {
  const where = directoryName ?? "(in memory)";
  const skillMd = sources.find((s) => s.path === "SKILL.md");
  if (skillMd === undefined) throw new TypeError(`skill ${where}: SKILL.md is missing`);
  const { frontmatter, name } = checkedFrontmatter(decodeText(await skillMd.read(), where), where);
  if (directoryName !== undefined && directoryName !== name) {
    throw new TypeError(`skill ${where}: the directory name must equal the frontmatter name "${name}"`);
  }
  if (sources.length > SKILL_LIMITS.files) {
    throw new TypeError(`skill ${name}: ${sources.length} files, over the limit of ${SKILL_LIMITS.files}`);
  }
  const total = sources.reduce((sum, s) => sum + s.size, 0);
  if (total > SKILL_LIMITS.bytes) {
    throw new TypeError(`skill ${name}: ${total} bytes, over the limit of ${SKILL_LIMITS.bytes}`);
  }
  const ordered = [skillMd, ...sources.filter((s) => s !== skillMd).sort((a, b) => a.path < b.path ? -1 : 1)];
  const base = `skill://${name}/`;
  const out: SkillFile[] = [];
  for (const source of ordered) {
    checkPath(source.path, name);
    const bytes = await source.read();
    const text = isText(bytes);
    out.push({
      path: source.path,
      uri: base + source.path.split("/").map(encodeURIComponent).join("/"),
      size: bytes.byteLength,
      digest: `sha256:${await sha256Hex(bytes)}`,
      mimeType: source.path === "SKILL.md" ? "text/markdown" : mimeTypeOf(source.path, text),
      text,
      read: source.read,
    });
  }
  return Object.freeze({
    name,
    uri: `${base}SKILL.md`,
    frontmatter: Object.freeze(frontmatter),
    files: Object.freeze(out),
    features: servedBy.features,
    extensions: servedBy.extensions,
  });
}

/** A path inside the skill: relative, `/`-separated, no `.`/`..` segments, no empty segments. */
function checkPath(path: string, name: string): void {
  const segments = path.split("/");
  if (
    path === "" || path.startsWith("/") || segments.some((s) => s === "" || s === "." || s === ".." || s.includes("\\"))
  ) {
    throw new TypeError(`skill ${name}: file path ${JSON.stringify(path)} must stay inside the skill`);
  }
}

function decodeText(bytes: Uint8Array, where: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new TypeError(`skill ${where}: SKILL.md is not valid UTF-8`);
  }
}

/** Valid UTF-8 without control bytes (tab, line feed and carriage return aside): text; anything else a blob. */
function isText(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
