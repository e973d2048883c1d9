/**
 * Agent Skills in the client (SEP-2640): list and describe a server's skills, and load one lazily,
 * verifying each file against the entry it was listed with. Skills are untrusted model input: nothing
 * is fetched before it is asked for, nothing is executed, and a file whose size or SHA-256 digest
 * differs from the entry, or a `SKILL.md` whose frontmatter differs from the listed one, is refused.
 *
 * @module
 */
import { canonicalJson } from "../internal/canonical-json.ts";
import { isObject } from "../internal/is-object.ts";
import { sha256Hex } from "../internal/sha256.ts";
import { clientError } from "./errors.ts";
import { ListCursor } from "./list-cursor.ts";
import { SkillVerificationError } from "./skill-verification-error.ts";

/** One file of a skill, as its entry lists it. */
export interface SkillResource {
  /** Its URI. */
  readonly uri: string;
  /** `sha256:` and the hex SHA-256 of its bytes. */
  readonly digest: string;
  /** Its size in bytes. */
  readonly size: number;
}

/** A skill entry (SEP-2640): its `SKILL.md` URI, frontmatter, and files (or `"dynamic"`). */
export interface SkillEntry {
  /** `skill://<path>/SKILL.md`. */
  readonly uri: string;
  /** The frontmatter of its `SKILL.md`. */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** Every file with its digest and size, or `"dynamic"` when the server does not enumerate them. */
  readonly resources: readonly SkillResource[] | "dynamic";
}

/** A skill being loaded: its verified `SKILL.md`, and its other files on demand. */
export interface LoadedSkill {
  /** The entry it was loaded from. */
  readonly entry: SkillEntry;
  /** Its name (the frontmatter's). */
  readonly name: string;
  /** The body of `SKILL.md`, verified: the instructions, without the frontmatter block. */
  readonly instructions: string;
  /** The frontmatter of `SKILL.md`, as data (equal to the entry's, or the load is refused). */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** The whole text of `SKILL.md`, verified, frontmatter included (what to write to disk). */
  readonly markdown: string;
  /** The paths of its other files, relative to the skill (`references/FORMS.md`). */
  readonly files: readonly string[];
  /**
   * Reads one of its files, verified against the entry, only now.
   *
   * @param path The path, relative to the skill.
   * @returns Its bytes.
   * @throws {SkillVerificationError} When its size or digest differs from the entry's.
   */
  read(path: string): Promise<Uint8Array>;
  /**
   * Reads one of its files as text, verified.
   *
   * @param path The path, relative to the skill.
   * @returns Its text (UTF-8).
   */
  readText(path: string): Promise<string>;
}

/** What the skills API needs of the client: sending a request, reading a resource. */
export interface SkillsBackend {
  /** Sends an MCP request and returns its result. */
  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** `client.skills`. */
export interface SkillsApi {
  /** Every skill entry (`skills/list`, all pages); reads no file. */
  list(): Promise<SkillEntry[]>;
  /** One entry (`skills/get`). */
  get(uri: string): Promise<SkillEntry>;
  /**
   * Loads a skill: reads and verifies its `SKILL.md` now (size, digest, frontmatter against the entry),
   * and its other files only when `read()` asks.
   */
  load(skill: SkillEntry | string): Promise<LoadedSkill>;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * Creates the skills API over a client.
 *
 * @param backend The client's requests.
 * @returns The API.
 */
export function createSkillsApi(backend: SkillsBackend): SkillsApi {
  const readFile = async (resource: SkillResource): Promise<Uint8Array> => {
    const result = await backend.request("resources/read", { uri: resource.uri });
    const contents = Array.isArray(result.contents) ? result.contents as Record<string, unknown>[] : [];
    const content = contents.find((c) => c.uri === resource.uri) ?? contents[0];
    if (!isObject(content)) {
      throw new SkillVerificationError(`${resource.uri}: the server returned no contents`, resource.uri);
    }
    const bytes = typeof content.text === "string"
      ? encoder.encode(content.text)
      : typeof content.blob === "string"
      ? Uint8Array.from(atob(content.blob), (c) => c.charCodeAt(0))
      : undefined;
    if (bytes === undefined) throw new SkillVerificationError(`${resource.uri}: neither text nor blob`, resource.uri);
    // A size mismatch is a verification failure by itself (SEP-2640, Integrity and Verification).
    if (bytes.byteLength !== resource.size) {
      throw new SkillVerificationError(
        `${resource.uri}: ${bytes.byteLength} bytes where the entry lists ${resource.size}; not used`,
        resource.uri,
      );
    }
    const digest = `sha256:${await sha256Hex(bytes)}`;
    if (digest !== resource.digest) {
      throw new SkillVerificationError(
        `${resource.uri}: its SHA-256 digest differs from the entry's; not used`,
        resource.uri,
      );
    }
    return bytes;
  };

  const api: SkillsApi = {
    async list() {
      const entries: SkillEntry[] = [];
      const walk = new ListCursor("skills/list");
      let cursor: string | undefined;
      do {
        const result = await backend.request("skills/list", cursor === undefined ? {} : { cursor });
        for (const entry of Array.isArray(result.skills) ? result.skills : []) entries.push(entryOf(entry));
        cursor = walk.next(result);
      } while (cursor !== undefined);
      return entries;
    },
    async get(uri) {
      const result = await backend.request("skills/get", { uri });
      return entryOf(result.skill);
    },
    async load(skill) {
      const entry = typeof skill === "string" ? await api.get(skill) : skill;
      if (entry.resources === "dynamic") {
        throw new SkillVerificationError(
          `${entry.uri}: the entry lists no digests ("dynamic"), so nothing can be verified`,
          entry.uri,
        );
      }
      const resources = entry.resources;
      const own = resources.find((r) => r.uri === entry.uri);
      if (own === undefined) {
        throw new SkillVerificationError(`${entry.uri}: the entry lists no digest for SKILL.md`, entry.uri);
      }
      const markdown = decoder.decode(await readFile(own));
      // Loaded on first use: the YAML parser is most of a client's size, and a client that never loads a
      // skill never needs it (a bundler splits it into a chunk of its own).
      const { splitFrontmatter } = await import("../internal/frontmatter.ts");
      const split = splitFrontmatter(markdown);
      if (split === undefined || canonicalJson(split.frontmatter) !== canonicalJson(entry.frontmatter)) {
        throw new SkillVerificationError(
          `${entry.uri}: the frontmatter of SKILL.md differs from the listed entry's; the skill is not loaded`,
          entry.uri,
        );
      }
      const base = entry.uri.slice(0, -"SKILL.md".length);
      const byPath = new Map<string, SkillResource>();
      for (const resource of resources) {
        if (resource !== own && resource.uri.startsWith(base)) {
          byPath.set(pathOf(resource.uri.slice(base.length)), resource);
        }
      }
      const read = async (path: string) => {
        const resource = byPath.get(path);
        if (resource === undefined) {
          throw clientError("protocol", `${entry.uri}: no file ${path} in this skill`);
        }
        return await readFile(resource);
      };
      return {
        entry,
        name: String(split.frontmatter.name),
        instructions: split.body,
        frontmatter: split.frontmatter,
        markdown,
        files: [...byPath.keys()],
        read,
        readText: async (path) => decoder.decode(await read(path)),
      };
    },
  };
  return api;
}

/** Checks an entry's shape. */
function entryOf(value: unknown): SkillEntry {
  if (!isObject(value) || typeof value.uri !== "string" || !isObject(value.frontmatter)) {
    throw clientError("protocol", "A skill entry needs a uri and a frontmatter object");
  }
  const resources = value.resources === "dynamic"
    ? "dynamic" as const
    : Array.isArray(value.resources)
    ? value.resources.filter((r): r is SkillResource =>
      isObject(r) && typeof r.uri === "string" && typeof r.digest === "string" && typeof r.size === "number"
    )
    : "dynamic" as const;
  return { uri: value.uri, frontmatter: value.frontmatter, resources };
}

/** A URI path inside the skill, decoded; one that climbs out (`..`) is kept out. */
function pathOf(encoded: string): string {
  const path = encoded.split("/").map((s) => decodeURIComponent(s)).join("/");
  return path.split("/").some((s) => s === ".." || s === ".") ? `\u0000${encoded}` : path;
}
