/**
 * The MCP Registry's `server.json` (schema 2025-12-11, github.com/modelcontextprotocol/registry
 * docs/reference/server-json), made from a server's card and its package manifests, and the drift
 * between two of them, as `mcplite server-json` writes and `--check`s it.
 *
 * @module
 */
import { isObject } from "../internal/is-object.ts";

/** The schema `server.json` declares (the registry's current one, CHANGELOG 2025-12-11). */
export const SERVER_JSON_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/** The registry's name form: reverse-DNS, one slash (`io.github.you/weather`). */
const NAME_FORM = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
/** The icon MIME types the registry accepts (its `Icon.mimeType` enum). */
const REGISTRY_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/jpg", "image/svg+xml", "image/webp"]);

/** What `server.json` is made from. */
export interface ServerJsonSource {
  /**
   * The server card the module's server serves (SEP-2127), read at a local origin; without `name` when
   * the card's name was made up from the host it was read at.
   */
  readonly card: Record<string, unknown>;
  /** The cards read at each remote's origin: their `remotes` carry the public URLs and auth headers. */
  readonly remoteCards: readonly Record<string, unknown>[];
  /** `package.json`, if the project has one. */
  readonly packageJson?: Record<string, unknown>;
  /** `jsr.json` (else `deno.json`), if the project has one. */
  readonly jsrJson?: Record<string, unknown>;
  /** `--name`, if given. */
  readonly name?: string;
  /** `--no-packages`: list no packages (a remote-only server). */
  readonly noPackages?: boolean;
}

/** The document, and what was left out of it and why, for the command to say. */
export interface ServerJsonResult {
  /** The `server.json` document. */
  readonly document: Record<string, unknown>;
  /** Notes for stderr (icons the registry does not take, a server version behind the package's). */
  readonly notes: string[];
  /**
   * Why the registry would refuse the npm package: its `package.json` without the server's name as
   * `mcpName`. `--check` fails on these; a write says them.
   */
  readonly mcpNameIssues: string[];
}

/**
 * Makes `server.json`: the name from `--name`, `mcpName` (`package.json`, else `jsr.json`/`deno.json`)
 * or the card's; the version from `package.json` (else `jsr.json`/`deno.json`); the description, title,
 * website and icons from the card; the npm package (`package.json`, unless `private`) run over stdio;
 * the remotes as the cards read at their origins list them, auth headers included. A JSR package is not
 * listed (the registry takes npm packages from npm's registry only), saying so.
 *
 * @param source The card, the remote cards, the manifests and the options.
 * @returns The document and the notes.
 * @throws {Error} Without a reverse-DNS name, or without a version.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serverJson } from "./server-json-document.ts";
 * const { document } = serverJson({
 *   card: { name: "localhost/weather", version: "1.0.0", description: "Forecasts" },
 *   remoteCards: [],
 *   packageJson: { name: "weather-mcp", version: "1.2.0", mcpName: "io.github.me/weather" },
 * });
 * assert.equal(document.version, "1.2.0");
 * assert.deepEqual(document.packages, [
 *   { registryType: "npm", identifier: "weather-mcp", version: "1.2.0", transport: { type: "stdio" } },
 * ]);
 * ```
 */
export function serverJson(source: ServerJsonSource): ServerJsonResult {
  const { card, packageJson: pkg, jsrJson: jsr } = source;
  const notes: string[] = [];
  const name = source.name ?? text(pkg?.mcpName) ?? text(jsr?.mcpName) ?? text(card.name);
  if (name === undefined || !NAME_FORM.test(name)) {
    throw new Error(
      `server-json needs the server's name in reverse-DNS form (io.github.you/weather): --name, "mcpName" in ` +
        `package.json, or createServer({ serverCard: { name } })${
          name === undefined ? "" : `; got ${JSON.stringify(name)}`
        }`,
    );
  }
  const version = text(pkg?.version) ?? text(jsr?.version);
  if (version === undefined) {
    throw new Error("server-json reads the version from package.json or jsr.json: neither has one");
  }
  if (card.version !== version) {
    notes.push(`the server reports version ${JSON.stringify(card.version)}, the package ${JSON.stringify(version)}`);
  }
  // The card falls back to the title or name for its description; a package's own says more then.
  const described = text(card.description);
  const fallback = described === undefined || described === card.title || `${card.name}`.endsWith(`/${described}`);
  const description = (fallback ? text(pkg?.description) ?? described : described) ?? name;
  const document: Record<string, unknown> = {
    $schema: SERVER_JSON_SCHEMA,
    name,
    description: description.length <= 100 ? description : `${description.slice(0, 99)}…`,
    version,
  };
  if (text(card.title) !== undefined) document.title = card.title;
  const website = text(card.websiteUrl) ?? text(pkg?.homepage);
  if (website !== undefined) document.websiteUrl = website;
  const repository = repositoryOf(pkg?.repository);
  if (repository !== undefined) document.repository = repository;
  const icons = registryIcons(card.icons, notes);
  if (icons.length > 0) document.icons = icons;
  const packages: Record<string, unknown>[] = [];
  const npmName = text(pkg?.name);
  const mcpNameIssues: string[] = [];
  if (!source.noPackages && npmName !== undefined && pkg?.private === true) {
    notes.push(
      `package.json says "private": true, so no npm package is listed; remove "private" once ${npmName} ` +
        `is published to npm, or pass --no-packages for a remote-only server`,
    );
  } else if (!source.noPackages && npmName !== undefined) {
    packages.push({ registryType: "npm", identifier: npmName, version, transport: { type: "stdio" } });
    // The registry reads the published package.json's `mcpName` and refuses a package whose is not the name.
    const mcpName = text(pkg?.mcpName);
    if (mcpName !== name) {
      mcpNameIssues.push(
        mcpName === undefined
          ? `package.json has no "mcpName": the registry accepts ${npmName} only with "mcpName": ${
            JSON.stringify(name)
          }`
          : `package.json's "mcpName" is ${JSON.stringify(mcpName)}, not the server's name ${
            JSON.stringify(name)
          }: the registry refuses ${npmName}`,
      );
    }
  }
  const jsrName = text(jsr?.name);
  if (!source.noPackages && jsrName !== undefined) {
    // The registry's npm validator fetches <registryBaseUrl>/<name>/<version> and accepts only npm's own
    // registry as the base: JSR's npm mirror (npm.jsr.io, `@jsr/scope__name`) is refused.
    notes.push(
      `${jsrName} (JSR) is not listed: the MCP Registry takes npm packages from registry.npmjs.org only, ` +
        `not JSR's npm mirror; publish the package to npm as well (package.json with "mcpName"), or list the ` +
        `server by --remote`,
    );
  }
  if (packages.length > 0) document.packages = packages;
  const remotes = source.remoteCards.flatMap((remoteCard) =>
    Array.isArray(remoteCard.remotes) ? remoteCard.remotes : []
  )
    .map((remote: Record<string, unknown>) => {
      const out: Record<string, unknown> = { type: remote.type, url: remote.url };
      if (Array.isArray(remote.headers)) out.headers = remote.headers;
      return out;
    });
  if (remotes.length > 0) document.remotes = remotes;
  return { document, notes, mcpNameIssues };
}

/**
 * Serialises `server.json` as it is written: two-space indents and a final newline.
 *
 * @param document The document.
 * @returns The file's text.
 */
export function formatServerJson(document: Record<string, unknown>): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * Lists how one `server.json` differs from another, member by member (`~ version: "1.0.0" → "1.1.0"`,
 * `+` for a member only the new one has, `-` for one only the old one has).
 *
 * @param before The file on disk, parsed.
 * @param after The document made now.
 * @returns One line per difference; none when they agree.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { driftOf } from "./server-json-document.ts";
 * assert.deepEqual(driftOf({ version: "1.0.0" }, { version: "1.1.0" }), ['~ version: "1.0.0" → "1.1.0"']);
 * ```
 */
export function driftOf(before: unknown, after: unknown, path = ""): string[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (isObject(before) && isObject(after) && !Array.isArray(before) && !Array.isArray(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => {
      const at = path === "" ? key : `${path}.${key}`;
      if (!(key in after)) return [`- ${at}: ${JSON.stringify(before[key])}`];
      if (!(key in before)) return [`+ ${at}: ${JSON.stringify(after[key])}`];
      return driftOf(before[key], after[key], at);
    });
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    return before.flatMap((item, i) => driftOf(item, after[i], `${path}[${i}]`));
  }
  return [`~ ${path || "(the document)"}: ${JSON.stringify(before)} → ${JSON.stringify(after)}`];
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** `package.json`'s `repository` (a string or `{ url, directory }`) as the registry's `Repository`. */
function repositoryOf(value: unknown): Record<string, unknown> | undefined {
  const raw = typeof value === "string" ? value : isObject(value) ? text(value.url) : undefined;
  if (raw === undefined) return undefined;
  const url = raw.replace(/^git\+/, "").replace(/^github:/, "https://github.com/").replace(/\.git$/, "")
    .replace(/^git:\/\//, "https://").replace(/^ssh:\/\/git@/, "https://");
  if (!/^https:\/\//.test(url)) return undefined;
  const repository: Record<string, unknown> = { url, source: new URL(url).hostname.split(".").at(-2) ?? "git" };
  const subfolder = isObject(value) ? text(value.directory) : undefined;
  if (subfolder !== undefined) repository.subfolder = subfolder;
  return repository;
}

/** The card's icons the registry takes: https URLs of at most 255 characters, of its five image types. */
function registryIcons(icons: unknown, notes: string[]): Record<string, unknown>[] {
  if (!Array.isArray(icons)) return [];
  return icons.filter((icon: Record<string, unknown>) => {
    const src = String(icon.src);
    const fits = src.startsWith("https://") && src.length <= 255 &&
      (icon.mimeType === undefined || REGISTRY_IMAGE_TYPES.has(String(icon.mimeType)));
    if (!fits) {
      notes.push(
        `icon ${
          JSON.stringify(src.slice(0, 60))
        } left out: the registry takes https: URLs (≤ 255) of PNG, JPEG, SVG or WebP`,
      );
    }
    return fits;
  });
}
