/**
 * The Skills extension on MCP (SEP-2640, `io.modelcontextprotocol/skills`): `skills/list` (paginated,
 * cacheable), `skills/get` (one entry by its URI), and `resources/directory/read` for a skill's
 * directories when `directoryRead` is on. Entries carry each file's `sha256:` digest and size,
 * computed when the skill was defined; the files themselves are resources (`resources/read`).
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import { type Registry, registryOf, type Skill } from "../../core/mod.ts";
import { CachedBody } from "./caching.ts";
import { listReply } from "./pagination.ts";
import { finishResult } from "./finish-result.ts";
import type { McpMethod, McpRequest } from "./mcp-request.ts";
import type { McpFeature } from "./feature-methods.ts";
import { echoed } from "../../internal/echo.ts";

/** A skill entry (SEP-2640): its URI, frontmatter, and the complete manifest of its files. */
function entryOf(skill: Skill): Record<string, unknown> {
  return {
    uri: skill.uri,
    frontmatter: skill.frontmatter,
    resources: skill.files.map((file) => ({ uri: file.uri, digest: file.digest, size: file.size })),
  };
}

function requireSkills(registry: Registry, method: string): void {
  if (registry.skills.next().done) {
    throw new ProtocolError("method_not_found", `Method not found: ${method} (this server serves no skills)`);
  }
}

function uriParam(request: McpRequest): string {
  const uri = request.rpc.params.uri;
  if (typeof uri !== "string" || uri === "") {
    throw new ProtocolError("invalid_params", "Invalid params: uri must be a string");
  }
  return uri;
}

/**
 * `skills/list`: every skill's entry, paginated; each entry whole on one page.
 *
 * @param ctx The binding.
 * @param request The request (its `cursor` picks the page).
 * @returns The page, serialised once.
 */
export const skillsList: McpMethod = (ctx, request) => {
  const registry = registryOf(ctx.core);
  requireSkills(registry, "skills/list");
  return listReply(
    ctx,
    request,
    `mcp:skills:${request.envelope.era}`,
    "skills",
    () => [...registry.skills].map(entryOf),
  );
};

/**
 * `skills/get`: one skill's entry, by its URI; no cursor. An unknown URI is -32602 (SEP-2640).
 *
 * @param ctx The binding.
 * @param request The request.
 * @returns The result.
 * @throws {ProtocolError} `invalid_params` for a missing or unknown URI.
 */
export const skillsGet: McpMethod = (ctx, request) => {
  const registry = registryOf(ctx.core);
  requireSkills(registry, "skills/get");
  const uri = uriParam(request);
  const skill = registry.skill(uri);
  if (skill === undefined) {
    throw new ProtocolError("invalid_params", `Invalid params: no skill at ${echoed(uri)}`, { data: { uri } });
  }
  const hint = ctx.settings.listCache;
  const result: Record<string, unknown> = { skill: entryOf(skill) };
  if (request.envelope.era === "modern") {
    result.ttlMs = hint.ttlMs;
    result.cacheScope = hint.scope;
  }
  return new CachedBody(JSON.stringify(finishResult(result, request.envelope, ctx.serverInfo)), hint);
};

const DIRECTORY = "inode/directory";

/**
 * `resources/directory/read` (SEP-2640, behind `directoryRead`): the direct children of a skill
 * directory (`skill://<name>/` or a subdirectory), files with their media types and subdirectories as
 * `inode/directory`. A URI that is not a directory is -32602.
 *
 * @param ctx The binding.
 * @param request The request.
 * @returns The result.
 * @throws {ProtocolError} `method_not_found` when `directoryRead` is off, `invalid_params` for a non-directory.
 */
export const directoryRead: McpMethod = (ctx, request) => {
  if (!ctx.settings.directoryRead) {
    throw new ProtocolError("method_not_found", "Method not found: resources/directory/read");
  }
  const uri = uriParam(request);
  const dir = uri.endsWith("/") ? uri : `${uri}/`;
  const children = new Map<string, Record<string, unknown>>();
  for (const skill of registryOf(ctx.core).skills) {
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
  return request.envelope.era === "modern" ? { ...result, ttlMs: 0, cacheScope: "private" } : result;
};

const SKILL_METHODS = { "skills/list": skillsList, "skills/get": skillsGet, "resources/directory/read": directoryRead };

/**
 * The MCP methods that serve skills (SEP-2640), brought by `defineSkill()` and `skillFromDirectory()`:
 * the same on every revision.
 */
export const SKILLS_ON_MCP: McpFeature = { mcp: { modern: SKILL_METHODS, legacy: SKILL_METHODS } };
