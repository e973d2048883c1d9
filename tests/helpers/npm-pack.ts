/**
 * The npm tarball of this checkout, as `npm pack` makes it (its `prepack` builds dist/ with tsc), packed
 * once per test process into a directory removed when the process exits, and projects outside the
 * repository that install it.
 */
import { mkdtempSync, rmSync } from "node:fs";
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

/** Packs the repository once per process; a string says why it could not (a test skips with it). */
export function packOnce(): Promise<Packed | string> {
  packed ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcplite-pack-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    const done = await run("npm", ["pack", "--json", "--pack-destination", dir], 240_000, ROOT, withBin());
    if (done.code === null || /ENOENT/.test(done.stderr)) return `needs npm to pack the package: ${done.stderr}`;
    if (done.code !== 0) throw new Error(`npm pack failed:\n${done.stderr}`);
    const [report] = JSON.parse(done.stdout.slice(done.stdout.indexOf("[")));
    return { tarball: join(dir, report.filename), files: report.files.map((file: { path: string }) => file.path) };
  })();
  return packed;
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
