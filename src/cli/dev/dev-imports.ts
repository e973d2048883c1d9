/**
 * The local files a server module loads: its relative imports, followed file by file (static imports,
 * re-exports, `import()` with a literal specifier), with the text each had when read, so that a change
 * is a different text. Packages (bare, `npm:`, `jsr:`, remote, `node_modules/`) are not followed.
 *
 * @module
 */

/** Each file of the graph and its text (`undefined` when it could not be read: missing, or a folder). */
export type Snapshot = Map<string, string | undefined>;

const SCRIPT = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/** ECMAScript 2025 §16.2.1 (ImportDeclaration, ExportDeclaration) and §13.3.10 (ImportCall), comments left out. */
function specifiersIn(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
  const found: string[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/gms)) found.push(m[1]);
  for (const m of code.matchAll(/^\s*import\s*["']([^"']+)["']/gm)) found.push(m[1]);
  for (const m of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*[,)]/g)) found.push(m[1]);
  return found;
}

/**
 * The files a specifier may name, in the order runtimes try them: as written, then TypeScript's
 * `.js`-for-`.ts` (TypeScript 5, `moduleResolution: nodenext`), then Bun's extensionless forms.
 */
function candidates(path: string): string[] {
  const js = /\.([cm]?)js(x?)$/.exec(path);
  if (js) return [path, path.slice(0, js.index) + `.${js[1]}ts${js[2]}`];
  if (/\.[a-z]+$/i.test(path.slice(path.lastIndexOf("/")))) return [path];
  return [path, ...[".ts", ".tsx", ".js", ".mjs", "/index.ts", "/index.js"].map((ext) => path + ext)];
}

/**
 * Reads a module and every local module it reaches.
 *
 * @param entry The module's absolute path.
 * @param skip Files not to follow (a library's).
 * @returns Each file and its text.
 */
export async function importGraph(entry: string, skip: (file: string) => boolean = () => false): Promise<Snapshot> {
  const { readFile } = await import("node:fs/promises");
  const read = (path: string) => readFile(path, "utf8").catch(() => undefined);
  const snapshot: Snapshot = new Map();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (snapshot.has(file)) continue;
    const text = await read(file);
    snapshot.set(file, text);
    if (text === undefined || !SCRIPT.test(file)) continue;
    for (const spec of specifiersIn(text)) {
      if (!/^(\.{1,2}\/|\/|file:)/.test(spec)) continue; // a package, or a remote module
      const path = decodeURIComponent(new URL(spec, `file://${file}`).pathname);
      if (path.includes("/node_modules/") || skip(path)) continue;
      const all = candidates(path);
      let found: string | undefined;
      for (const candidate of all) {
        if (snapshot.has(candidate) || await read(candidate) !== undefined) {
          found = candidate;
          break;
        }
      }
      // A file that does not exist yet is still watched: creating it may be the fix.
      queue.push(found ?? all[0]);
    }
  }
  return snapshot;
}

/**
 * The files whose text differs between two snapshots (or that one of them lacks).
 *
 * @param before The earlier snapshot.
 * @param after The later one.
 * @returns The changed files.
 */
export function changedFiles(before: Snapshot, after: Snapshot): string[] {
  const files = new Set([...before.keys(), ...after.keys()]);
  return [...files].filter((file) => before.get(file) !== after.get(file));
}
