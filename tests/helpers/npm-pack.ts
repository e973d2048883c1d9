/**
 * The npm tarball of this checkout, as `npm pack` makes it (its `prepare` builds dist/ with tsc), packed
 * once per test process into a directory removed when the process exits (or once per `npm test`, shared by
 * its test processes), and projects outside the repository that install it.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { ROOT, type Run, run } from "./process.ts";

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
  packed ??= process.env.MCPLITE_PACK_DIR ? packShared(process.env.MCPLITE_PACK_DIR) : packInto(ownDir());
  return packed;
}

/** A directory of this process's own, removed when it exits. */
function ownDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcplite-pack-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function packInto(dir: string): Promise<Packed | string> {
  const done = await run("npm", ["pack", "--json", "--pack-destination", dir], 240_000, ROOT, withBin());
  if (done.code === null || /ENOENT/.test(done.stderr)) return `needs npm to pack the package: ${done.stderr}`;
  if (done.code !== 0) throw new Error(`npm pack failed:\n${done.stderr}`);
  const [report] = JSON.parse(done.stdout.slice(done.stdout.indexOf("[")));
  return { tarball: join(dir, report.filename), files: report.files.map((file: { path: string }) => file.path) };
}

/** The pack of the whole run: made by the process that takes the lock (an exclusive mkdir), read by the rest. */
async function packShared(dir: string): Promise<Packed | string> {
  const report = join(dir, "packed.json");
  let mine = true;
  try {
    mkdirSync(join(dir, "lock"));
  } catch {
    mine = false;
  }
  if (mine) {
    let result: Packed | string | { error: string };
    try {
      result = await packInto(dir);
    } catch (error) {
      result = { error: String((error as Error).message) };
    }
    writeFileSync(`${report}.tmp`, JSON.stringify(result));
    renameSync(`${report}.tmp`, report); // whole or absent for the readers
    if (typeof result === "object" && "error" in result) throw new Error(result.error);
    return result;
  }
  const deadline = Date.now() + 300_000;
  while (!existsSync(report)) {
    if (Date.now() > deadline) throw new Error(`no pack in ${dir} after 300 s (another test process packs it)`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const result = JSON.parse(readFileSync(report, "utf8")) as Packed | string | { error: string };
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
