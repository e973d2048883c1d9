/**
 * Where a project made by `mcplite init` gets `@mcplite/sdk` from: the registries (JSR for Deno, npm for
 * the others), or, before a release or to try a change, a tarball (`npm pack`) or a checkout. `--sdk`
 * says which; without it, the CLI's own origin decides: run from a registry install it writes the
 * registry's version, run from an install of a tarball (`npx ./mcplite-sdk-….tgz init`, or
 * `node_modules/.bin/mcplite init` in a project that installed one) the same tarball, and run from a
 * checkout that checkout, so the new project installs what the user is running.
 *
 * @module
 */
import { UsageError } from "./exit-errors.ts";

/** The SDK a new project depends on. */
export type SdkSource =
  | { kind: "registry" }
  /** A tarball `npm pack` wrote; an absolute path. */
  | { kind: "tarball"; path: string }
  /** A checkout whose `dist/` is built (npm links it); an absolute path. */
  | { kind: "directory"; path: string };

interface Fs {
  readFile(path: string, encoding: "utf8"): Promise<string>;
  stat(path: string): Promise<{ isDirectory(): boolean }>;
}

const PACKAGE = "@mcplite/sdk";

async function readJson(fs: Fs, path: string): Promise<Record<string, unknown> | undefined> {
  try {
    return JSON.parse(await fs.readFile(path, "utf8"));
  } catch {
    return undefined;
  }
}

async function isDirectory(fs: Fs, path: string): Promise<boolean | undefined> {
  try {
    return (await fs.stat(path)).isDirectory();
  } catch {
    return undefined;
  }
}

/**
 * A checkout (or an unpacked package) of the SDK: its `npm pack` tarball when one lies in it, else the
 * directory when its `dist/` is built (what package.json's exports name), else a usage error saying how.
 */
async function checkout(fs: Fs, dir: string): Promise<SdkSource> {
  const pkg = await readJson(fs, `${dir}/package.json`);
  if (pkg?.name !== PACKAGE) throw new UsageError(`init: --sdk ${dir} is not a checkout of ${PACKAGE}`);
  const tarball = `${dir}/mcplite-sdk-${pkg.version}.tgz`;
  if (await isDirectory(fs, tarball) === false) return { kind: "tarball", path: tarball };
  if (await isDirectory(fs, `${dir}/dist`)) return { kind: "directory", path: dir };
  throw new UsageError(
    `init: the ${PACKAGE} checkout at ${dir} is not built: run \`npm pack\` there (it builds dist/ and writes ` +
      `mcplite-sdk-${pkg.version}.tgz), then init again; or --sdk registry for the published version`,
  );
}

/** `--sdk`'s value: `registry`, a tarball, or a checkout. */
async function fromOption(fs: Fs, value: string, cwd: string): Promise<SdkSource> {
  if (value === "registry") return { kind: "registry" };
  const path = absolute(value, cwd);
  const directory = await isDirectory(fs, path);
  if (directory === undefined) {
    throw new UsageError(`init: --sdk ${value}: no such file or directory (a tarball, a checkout, or registry)`);
  }
  return directory ? await checkout(fs, path) : { kind: "tarball", path };
}

/**
 * Where the running CLI came from. Installed (under `node_modules/@mcplite/sdk`), the project that
 * installed it says in its package.json: a `file:` specifier (npm's and Bun's for a tarball or a
 * directory; npx writes one into its cache's package.json) is that file, anything else a registry. Not
 * installed, the CLI runs from a checkout. From JSR (an `https:` module), the registry.
 */
async function fromOrigin(fs: Fs, moduleUrl: string): Promise<SdkSource> {
  if (!moduleUrl.startsWith("file:")) return { kind: "registry" };
  let dir = decodeURIComponent(new URL(".", moduleUrl).pathname).replace(/\/$/, "");
  // The package root: src/cli/ in a checkout, dist/src/cli/ in the npm package.
  for (let up = 0; up < 4 && dir !== ""; up++, dir = dir.slice(0, dir.lastIndexOf("/"))) {
    if ((await readJson(fs, `${dir}/package.json`))?.name === PACKAGE) break;
  }
  if ((await readJson(fs, `${dir}/package.json`))?.name !== PACKAGE) return { kind: "registry" };
  const installed = dir.lastIndexOf("/node_modules/");
  if (installed === -1) return await checkout(fs, dir);
  const project = dir.slice(0, installed);
  const manifest = await readJson(fs, `${project}/package.json`);
  const spec = [manifest?.dependencies, manifest?.devDependencies]
    .map((deps) => (deps as Record<string, unknown> | undefined)?.[PACKAGE])
    .find((value): value is string => typeof value === "string");
  const file = spec?.startsWith("file:")
    ? spec.slice("file:".length)
    : /^\.{0,2}\//.test(spec ?? "")
    ? spec
    : undefined;
  if (file === undefined) return { kind: "registry" };
  const path = absolute(file, project);
  const directory = await isDirectory(fs, path);
  if (directory === undefined) return { kind: "registry" }; // moved or deleted since: the registry, as a fallback
  return directory ? await checkout(fs, path) : { kind: "tarball", path };
}

/**
 * The SDK a new project depends on: `--sdk`'s, or the running CLI's own (see the module's comment).
 *
 * @param option `--sdk`'s value, if given.
 * @param moduleUrl The CLI's module URL (`import.meta.url`).
 * @param cwd The working directory, which a relative `--sdk` path is read from.
 * @returns The source.
 * @throws {UsageError} When `--sdk` names nothing, or a checkout that is not built.
 */
export async function sdkSource(option: string | undefined, moduleUrl: string, cwd: string): Promise<SdkSource> {
  // Deno, Bun and Node all have it; named literally so that JSR can analyse it.
  const fs: Fs = await import("node:fs/promises");
  return option === undefined ? await fromOrigin(fs, moduleUrl) : await fromOption(fs, option, cwd);
}

/**
 * The dependency a project in `projectDir` writes for the SDK: a `file:` specifier relative to it (as
 * `npm install <path>` writes it), or undefined for the registry's version.
 *
 * @param source Where the SDK comes from.
 * @param projectDir The new project's absolute directory.
 * @returns The specifier, or undefined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sdkSpecifier } from "./init-sdk.ts";
 * assert.equal(sdkSpecifier({ kind: "tarball", path: "/w/sdk/mcplite-sdk-1.0.0.tgz" }, "/w/app"), "file:../sdk/mcplite-sdk-1.0.0.tgz");
 * ```
 */
export function sdkSpecifier(source: SdkSource, projectDir: string): string | undefined {
  return source.kind === "registry" ? undefined : `file:${relative(projectDir, source.path)}`;
}

/** `path` made absolute against `base` (POSIX separators; `.` and `..` resolved). */
function absolute(path: string, base: string): string {
  const parts: string[] = [];
  for (const part of (path.startsWith("/") ? path : `${base}/${path}`).split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "" && part !== ".") parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/** The path from directory `from` to `to`, both absolute. */
function relative(from: string, to: string): string {
  const a = absolute(from, "/").split("/").filter(Boolean);
  const b = absolute(to, "/").split("/").filter(Boolean);
  let same = 0;
  while (same < a.length && same < b.length && a[same] === b[same]) same++;
  const up = a.slice(same).map(() => "..");
  const path = [...up, ...b.slice(same)].join("/");
  return up.length === 0 ? `./${path}` : path;
}
