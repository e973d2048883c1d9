// The sizes read in review (docs/contributing.md, House rules): the source files of src/ over 450 lines and the
// folders of src/ holding more than 45 files, printed by .ci/run among its fast checks. A signal, never a failure:
// a file or a folder is split by concept, never to meet a count. The one limit, 600 lines for a hand-written source
// file, is a test (tests/boundaries.test.ts). Generated code (src/gen/) is left out.
// Plain JavaScript for Node, so that a fresh machine with Node and npm only runs it.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

/** A source file longer than this many lines is listed. */
export const FILE_LINES = 450;
/** A folder holding more than this many files directly is listed. */
export const FOLDER_FILES = 45;

/**
 * The files and folders under `dir` (relative to `root`) past the report's sizes, longest and fullest first.
 *
 * @param {string} root The repository's root.
 * @param {string} [dir] The folder to read, relative to `root` (default `src`).
 * @param {readonly string[]} [skip] Folders left out, relative to `root` (default `src/gen`, generated code).
 * @returns {{ files: { path: string; lines: number }[]; folders: { path: string; files: number }[] }}
 */
export function sizeReport(root, dir = "src", skip = ["src/gen"]) {
  const files = [];
  const folders = [];
  const walk = (folder) => {
    const entries = readdirSync(join(root, folder), { withFileTypes: true });
    const count = entries.filter((entry) => entry.isFile()).length;
    if (count > FOLDER_FILES) folders.push({ path: `${folder}/`, files: count });
    for (const entry of entries) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skip.includes(path)) walk(path);
      } else if (entry.isFile() && entry.name.endsWith(".ts")) {
        const lines = readFileSync(join(root, path), "utf8").split("\n").length - 1;
        if (lines > FILE_LINES) files.push({ path, lines });
      }
    }
  };
  walk(dir);
  files.sort((a, b) => b.lines - a.lines || (a.path < b.path ? -1 : 1));
  folders.sort((a, b) => b.files - a.files || (a.path < b.path ? -1 : 1));
  return { files, folders };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { files, folders } = sizeReport(fileURLToPath(new URL("..", import.meta.url)));
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  console.log(
    `Sizes to read in review (a signal, not a limit; docs/contributing.md, House rules): ` +
      `${plural(files.length, "file")} of src/ over ${FILE_LINES} lines, ` +
      `${plural(folders.length, "folder")} over ${FOLDER_FILES} files.`,
  );
  for (const { path, lines } of files) console.log(`  ${path}: ${lines} lines`);
  for (const { path, files: count } of folders) console.log(`  ${path}: ${count} files`);
}
