/**
 * The methods of the Skills extension (SEP-2640, `io.modelcontextprotocol/skills`), wire-free: written
 * against the public handler context of `defineExtension().method()` (`src/core/definitions/extension.ts`), as any
 * extension's are. `skills/list` (paginated, cacheable), `skills/get` (one entry by its URI), and
 * `resources/directory/read` for a skill's directories when the server's `directoryRead` setting is on.
 * Entries carry each file's `sha256:` digest and size, computed when the skill was defined; the files
 * themselves are resources (`resources/read`).
 *
 * @module
 */
import type { Extension } from "../core/definitions/extension.ts";
import type { Skill } from "../core/definitions/skill.ts";
import { ProtocolError } from "../errors/error.ts";
import { echoed } from "../internal/echo.ts";

/** The context of an extension method's handler. */
type Ctx = Parameters<(Extension["methods"] extends ReadonlyMap<string, infer M> ? M : never)["handle"]>[1];
/** An extension method's handler, for params any JSON object. */
type Handler = (params: Record<string, unknown>, ctx: Ctx) => Readonly<Record<string, unknown>>;

/** A skill entry (SEP-2640): its URI, frontmatter, and the complete manifest of its files. */
function entryOf(skill: Skill): Record<string, unknown> {
  return {
    uri: skill.uri,
    frontmatter: skill.frontmatter,
    resources: skill.files.map((file) => ({ uri: file.uri, digest: file.digest, size: file.size })),
  };
}

/** Fails as an unknown method when the server serves no skill (a registry that shares another's methods). */
function requireSkills(ctx: Ctx, method: string): void {
  for (const _ of ctx.served.skills) return;
  throw new ProtocolError("method_not_found", `Method not found: ${method} (this server serves no skills)`);
}

function uriParam(params: Record<string, unknown>): string {
  const uri = params.uri;
  if (typeof uri !== "string" || uri === "") {
    throw new ProtocolError("invalid_params", "Invalid params: uri must be a string");
  }
  return uri;
}

/** `skills/list`: every skill's entry, paginated; each entry whole on one page. */
export const skillsList: Handler = (_params, ctx) => {
  requireSkills(ctx, "skills/list");
  return ctx.page("skills", () => [...ctx.served.skills].map(entryOf));
};

/** `skills/get`: one skill's entry, by its URI; no cursor. An unknown URI is -32602 (SEP-2640). */
export const skillsGet: Handler = (params, ctx) => {
  requireSkills(ctx, "skills/get");
  const uri = uriParam(params);
  const skill = ctx.served.skill(uri);
  if (skill === undefined) {
    throw new ProtocolError("invalid_params", `Invalid params: no skill at ${echoed(uri)}`, { data: { uri } });
  }
  return ctx.cacheable({ skill: entryOf(skill) });
};

const DIRECTORY = "inode/directory";

/**
 * `resources/directory/read` (SEP-2640, behind `directoryRead`): the direct children of a skill
 * directory (`skill://<name>/` or a subdirectory), files with their media types and subdirectories as
 * `inode/directory`. A URI that is not a directory is -32602; without `directoryRead`, the method is unknown.
 */
export const directoryRead: Handler = (params, ctx) => {
  if (ctx.settings.directoryRead !== true) {
    throw new ProtocolError("method_not_found", "Method not found: resources/directory/read");
  }
  const uri = uriParam(params);
  const dir = uri.endsWith("/") ? uri : `${uri}/`;
  const children = new Map<string, Record<string, unknown>>();
  for (const skill of ctx.served.skills) {
    const base = skill.uri.slice(0, -"SKILL.md".length);
    if (!dir.startsWith(base)) continue;
    for (const file of skill.files) {
      if (!file.uri.startsWith(dir)) continue;
      const rest = file.uri.slice(dir.length);
      const slash = rest.indexOf("/");
      if (slash === -1) children.set(file.uri, { uri: file.uri, name: rest, mimeType: file.mimeType, size: file.size });
      else {
        const child = dir + rest.slice(0, slash + 1);
        children.set(child, { uri: child, name: rest.slice(0, slash), mimeType: DIRECTORY });
      }
    }
  }
  if (children.size === 0) {
    throw new ProtocolError("invalid_params", `Invalid params: ${echoed(uri)} is not a skill directory`, {
      data: { uri },
    });
  }
  const result: Record<string, unknown> = { resources: [...children.values()] };
  return ctx.protocolVersion >= "2026-07-28" ? { ...result, ttlMs: 0, cacheScope: "private" } : result;
};
