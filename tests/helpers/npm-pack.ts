/**
 * The npm tarball of this checkout, as `npm pack` makes it (its `prepare` builds dist/ with tsc), packed
 * once per test process into a directory removed when the process exits (or once per `npm test`, shared by
 * its test processes), and projects outside the repository that install it: one `npm install` of the tarball
 * per run, copied (hard links) into each test's project, with the frameworks a test needs beside it.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { ROOT, type Run, run } from "./process.ts";
import { waitFor } from "./wait.ts";

/** The repository's programs (npm's, Deno, Bun, tsc). */
export const BIN = `${ROOT}node_modules/.bin`;

/** The packed tarball. */
export interface Packed {
  /** Its path. */
  tarball: string;
  /** The files it holds, relative to the package root. */
  files: string[];
}

let packed: Promise<Packed | string> | undefined;

/**
 * Packs the repository once per process, or once per `npm test` when several test processes run at once
 * (tools/test.mjs names a shared directory in MCPLITE_PACK_DIR: the first process packs, the others wait
 * for its report, since two `prepare` builds would race on dist/). A string says why it could not (a test
 * skips with it).
 */
export function packOnce(): Promise<Packed | string> {
  packed ??= once("packed", packInto);
  return packed;
}

/**
 * What `make` answers for the pack's directory, made once per process, or once per `npm test` when several test
 * processes run at once (MCPLITE_PACK_DIR): the first to take the lock makes it, the others wait for its report.
 */
function once<T extends object>(name: string, make: (dir: string) => Promise<T | string>): Promise<T | string> {
  return process.env.MCPLITE_PACK_DIR ? shared(process.env.MCPLITE_PACK_DIR, name, make) : make(ownDir());
}

let own: string | undefined;

/** A directory of this process's own, removed when it exits. */
function ownDir(): string {
  if (own !== undefined) return own;
  const dir = own = mkdtempSync(join(tmpdir(), "mcplite-pack-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function packInto(dir: string): Promise<Packed | string> {
  // dist/ built after every source changed (as CI builds it, npm ci's `prepare`, before the tests): packed as it is,
  // not built again by `npm pack`'s own `prepare` (10 CPU-s of tsc on a 2-core run).
  const scripts = builtAfterSources() ? ["--ignore-scripts"] : [];
  const done = await run("npm", ["pack", "--json", "--pack-destination", dir, ...scripts], 240_000, ROOT, withBin());
  if (done.code === null || /ENOENT/.test(done.stderr)) return `needs npm to pack the package: ${done.stderr}`;
  if (done.code !== 0) throw new Error(`npm pack failed:\n${done.stderr}`);
  const [report] = JSON.parse(done.stdout.slice(done.stdout.indexOf("[")));
  return { tarball: join(dir, report.filename), files: report.files.map((file: { path: string }) => file.path) };
}

/** What `npm run build` compiles (tsconfig.npm.json), and what says how. */
const BUILD_INPUTS = ["mod.ts", "src", "tsconfig.npm.json", "package.json"];

/**
 * Whether dist/ was built after the last change to what it is built from: its oldest file is newer than every input
 * file and folder (a folder's time moves when a file in it is added, renamed or removed, which a build must see too).
 *
 * @returns `true` when dist/ is as a build now would make it.
 */
export function builtAfterSources(): boolean {
  const newest = (path: string): number => {
    const stat = statSync(path);
    if (!stat.isDirectory()) return stat.mtimeMs;
    return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
  };
  const oldest = (path: string): number => {
    const stat = statSync(path);
    if (!stat.isDirectory()) return stat.mtimeMs;
    return Math.min(...readdirSync(path).map((name) => oldest(join(path, name))));
  };
  try {
    return oldest(`${ROOT}dist`) > Math.max(...BUILD_INPUTS.map((input) => newest(`${ROOT}${input}`)));
  } catch {
    return false; // no dist/ (or an input gone): build
  }
}

/** The run's `name`: made by the process that takes its lock (an exclusive mkdir), read by the rest. */
async function shared<T extends object>(
  dir: string,
  name: string,
  make: (dir: string) => Promise<T | string>,
): Promise<T | string> {
  const report = join(dir, `${name}.json`);
  let mine = true;
  try {
    mkdirSync(join(dir, `${name}.lock`));
  } catch {
    mine = false;
  }
  if (mine) {
    let result: T | string | { error: string };
    try {
      result = await make(dir);
    } catch (error) {
      result = { error: String((error as Error).message) };
    }
    writeFileSync(`${report}.tmp`, JSON.stringify(result));
    renameSync(`${report}.tmp`, report); // whole or absent for the readers
    if (typeof result === "object" && "error" in result) throw new Error(result.error);
    return result;
  }
  await waitFor(() => existsSync(report), 300_000, `${name} in ${dir}, which another test process makes`);
  const result = JSON.parse(readFileSync(report, "utf8")) as T | string | { error: string };
  if (typeof result === "object" && "error" in result) throw new Error(result.error);
  return result;
}

/** Whether a package manager failed for want of the registry (then the test skips, saying so). */
export function offline(result: Run): boolean {
  return result.code !== 0 && /ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|network|ConnectionRefused/i.test(
    result.stderr + result.stdout,
  );
}

/** The environment with `first` (a directory of programs) ahead of PATH, and the repo's bins after it. */
export function withBin(first?: string): Record<string, string | undefined> {
  const path = [first, process.env.PATH, BIN].filter(Boolean).join(":");
  return { ...process.env, PATH: path };
}

/** The repository's package.json: the versions its checks pin. */
const REPO = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8"));

let installed: Promise<{ dir: string } | string> | undefined;

/**
 * A project that installed the tarball and valibot (`npm install <tarball> valibot@…`, the first step of every
 * consumer of the package), installed once per process, or once per `npm test` (in MCPLITE_PACK_DIR): each
 * test copies it with {@link consumerProject} rather than running npm's install of the same tarball again.
 * A string says why there is none (a test skips with it).
 */
export function installOnce(): Promise<{ dir: string } | string> {
  installed ??= once("installed", async (dir) => {
    const made = await packOnce();
    if (typeof made === "string") return made;
    const project = join(dir, "consumer");
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    const args = [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      made.tarball,
      `valibot@${pinned("valibot")}`,
    ];
    const added = await run("npm", args, 180_000, project, withBin());
    if (offline(added)) return "needs the npm registry once (valibot and the package's dependencies)";
    if (added.code !== 0) throw new Error(`npm install of the tarball failed:\n${added.stdout}${added.stderr}`);
    return { dir: project };
  });
  return installed;
}

/** The version of `name` the repository pins (its dependencies or devDependencies). */
function pinned(name: string): string {
  const version = REPO.dependencies[name] ?? REPO.devDependencies[name];
  if (version === undefined) throw new Error(`package.json pins no ${name}`);
  return version;
}

/**
 * Makes `app` a copy of the installed project ({@link installOnce}): its package.json and lockfiles copied, its
 * node_modules hard-linked (`cp -al`: no file is written through a link; npm, run there later, writes new
 * files). Each of `link` (packages the repository's node_modules holds at the version the repository pins, or,
 * for @types/node, the one it installed) is then a symlink to the repository's copy, declared in package.json
 * as an install would: the frameworks a consumer imports beside the package, not a subject of npm's install.
 * A string says why there is no installed project.
 */
export async function consumerProject(app: string, link: string[] = []): Promise<string | undefined> {
  const base = await installOnce();
  if (typeof base === "string") return base;
  mkdirSync(app, { recursive: true });
  for (const file of ["package.json", "package-lock.json"]) copyFileSync(join(base.dir, file), join(app, file));
  const copied = await run("cp", ["-al", join(base.dir, "node_modules"), join(app, "node_modules")], 60_000);
  if (copied.code !== 0) throw new Error(`cp -al failed: ${copied.stderr}`);
  // npm's record of the tree, which an install there would rewrite in place (through the link): it reads the tree.
  rmSync(join(app, "node_modules", ".package-lock.json"), { force: true });
  linkPackages(app, link);
  return undefined;
}

/** Symlinks packages of the repository's node_modules into `app`'s, and declares them in its package.json. */
export function linkPackages(app: string, names: string[]): void {
  if (names.length === 0) return;
  const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
  for (const name of names) {
    const from = `${ROOT}node_modules/${name}`;
    const { version } = JSON.parse(readFileSync(`${from}/package.json`, "utf8"));
    if (name !== "@types/node" && version !== pinned(name)) {
      throw new Error(`node_modules holds ${name} ${version}, package.json pins ${pinned(name)}: npm ci`);
    }
    const to = join(app, "node_modules", name);
    mkdirSync(dirname(to), { recursive: true });
    rmSync(to, { recursive: true, force: true });
    symlinkSync(from, to, "dir");
    manifest.dependencies = { ...manifest.dependencies, [name]: version };
  }
  writeFileSync(join(app, "package.json"), JSON.stringify(manifest, null, 2));
}
