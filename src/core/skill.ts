/**
 * An Agent Skill as the server holds it (SEP-2640, the `io.modelcontextprotocol/skills` extension): its
 * name, the frontmatter of its `SKILL.md`, and its files with their digests and sizes, computed once
 * when the skill is defined. `defineSkill()` and `skillFromDirectory()` (`@mcplite/sdk/skills`) make one.
 *
 * @module
 */

/** One file of a skill. */
export interface SkillFile {
  /** Its path inside the skill, `/`-separated (`SKILL.md`, `references/FORMS.md`). */
  readonly path: string;
  /** Its URI: `skill://<name>/<path>`. */
  readonly uri: string;
  /** Its size, in bytes. */
  readonly size: number;
  /** `sha256:` and the hex SHA-256 of its bytes. */
  readonly digest: string;
  /** Its media type (`text/markdown` for `SKILL.md`). */
  readonly mimeType: string;
  /** Whether it is served as text (valid UTF-8) rather than as a base64 blob. */
  readonly text: boolean;
  /** Reads its bytes (from memory, or from disk on each read, so large files are not held). */
  read(): Promise<Uint8Array>;
}

/** A skill. */
export interface Skill {
  /** What the definition brings to the wires that serve it (e.g. the MCP methods that serve resources), read by each binding; opaque to you. */
  readonly features?: readonly Readonly<Record<string, unknown>>[];
  /** Its name (the frontmatter's `name`, and the final segment of its URI path). */
  readonly name: string;
  /** Its URI: `skill://<name>/SKILL.md`. */
  readonly uri: string;
  /** The parsed YAML frontmatter of its `SKILL.md`, as it is. */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** Its files, `SKILL.md` first. */
  readonly files: readonly SkillFile[];
}
