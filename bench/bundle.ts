/**
 * Bundle size of a one-tool HTTP server (`bench/bundle/*.ts`, each as its library's docs write it),
 * built with `bun build --minify` and gzipped (level 9); and how many packages installing each library
 * brings in, counted from `package-lock.json` (dependencies and required peers, transitively). The
 * one-call client is built with `--splitting`: what loads at start is measured (its entry chunk and the
 * chunks that imports statically, each gzipped); what loads lazily (YAML, SSE, the 2025 session) is not.
 * Used by `bench/run.ts`; runs alone too: `bun bench/bundle.ts`.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/** One bundle. */
export interface BundleRow {
  /** The row name. */
  name: string;
  /** Minified bytes. */
  minified: number;
  /** Gzipped bytes. */
  gzip: number;
  /** Packages an install brings in (the library itself included). */
  packages: number;
  /** Why it could not be built. */
  error?: string;
}

/** The row of a one-tool server with the default bindings. */
export const OURS = "@mcplite/sdk (MCP-lite + MCP)";
/** The row of mcp-lite's one-tool server, the peer cold starts are compared with. */
export const MCP_LITE = "mcp-lite 0.10.0";
/** The row of a one-tool server on MCP-lite only. */
export const OURS_LITE = "@mcplite/sdk/lite (MCP-lite)";
/** The row of the typed client making one call (the entry chunk of a `--splitting` build). */
export const CLIENT_ONE_CALL = "@mcplite/sdk/client, one call (entry chunk)";

/** The entries, the packages a user installs for each, and whether to split out lazy imports. */
const ENTRIES: [name: string, file: string, installs: string[], split?: boolean][] = [
  [OURS, "ours.ts", ["valibot"]],
  // `createServer()` of the main entry names the MCP binding as a default; the lite entry's does not.
  [OURS_LITE, "ours-lite.ts", ["valibot"]],
  [MCP_LITE, "mcp-lite.ts", ["mcp-lite", "valibot", "@valibot/to-json-schema"]],
  ["tmcp 1.20.0 + transport-http + adapter-valibot", "tmcp.ts", [
    "tmcp",
    "@tmcp/transport-http",
    "@tmcp/adapter-valibot",
    "valibot",
  ]],
  ["@modelcontextprotocol/server 2.4.0", "sdk.ts", [
    "@modelcontextprotocol/server",
    "valibot",
    "@valibot/to-json-schema",
  ]],
  [CLIENT_ONE_CALL, "client-one-call.ts", ["eventsource-parser", "yaml"], true],
];

type Lock = {
  packages: Record<
    string,
    {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
      optionalDependencies?: Record<string, string>;
    }
  >;
};

/**
 * Counts the packages installing `roots` brings in, from the lockfile.
 *
 * @param lock The parsed `package-lock.json`.
 * @param roots The packages installed.
 * @returns The number of distinct packages.
 */
export function closure(lock: Lock, roots: string[]): number {
  const seen = new Set<string>();
  const queue = roots.map((name) => `node_modules/${name}`);
  while (queue.length > 0) {
    const key = queue.shift()!;
    if (seen.has(key)) continue;
    const entry = lock.packages[key];
    if (entry === undefined) continue;
    seen.add(key);
    const optionalPeers = entry.peerDependenciesMeta ?? {};
    const deps = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((n) => !optionalPeers[n]?.optional),
      ...Object.keys(entry.optionalDependencies ?? {}),
    ];
    for (const dep of deps) {
      // npm's resolution: a nested copy under this package first, then the hoisted one.
      const nested = `${key}/node_modules/${dep}`;
      queue.push(lock.packages[nested] ? nested : `node_modules/${dep}`);
    }
  }
  return seen.size;
}

/**
 * Builds each one-tool server and measures it.
 *
 * @param root The project root.
 * @param options `only`: the rows to build (default all); `out`: where the bundles go (default
 *   `node_modules/.cache/mcplite-bench`).
 * @returns One row per library.
 */
export function bundleSizes(root: string, options: { only?: string[]; out?: string } = {}): BundleRow[] {
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as Lock;
  const out = options.out ?? join(root, "node_modules", ".cache", "mcplite-bench");
  mkdirSync(out, { recursive: true });
  const entries = ENTRIES.filter(([name]) => options.only === undefined || options.only.includes(name));
  return entries.map(([name, file, installs, split]) => {
    const target = join(out, `bundle-${file.replace(".ts", ".js")}`);
    // Split: the entry keeps its name in a folder of its own, beside the chunks it may import later.
    const dir = join(out, `split-${file.replace(".ts", "")}`);
    const output = split ? ["--splitting", `--outdir=${dir}`] : [`--outfile=${target}`];
    if (split) rmSync(dir, { recursive: true, force: true });
    const built = spawnSync(
      join(root, "node_modules", ".bin", "bun"),
      ["build", join("bench", "bundle", file), "--minify", ...output],
      { cwd: root, encoding: "utf8", timeout: 60_000 },
    );
    const packages = closure(lock, installs);
    if (built.status !== 0) return { name, minified: 0, gzip: 0, packages, error: built.stderr.slice(0, 200) };
    const chunks = split ? loadedAtStart(dir, file.replace(".ts", ".js")) : [readFileSync(target)];
    const minified = chunks.reduce((sum, code) => sum + code.byteLength, 0);
    const gzip = chunks.reduce((sum, code) => sum + gzipSync(code, { level: 9 }).byteLength, 0);
    return { name, minified, gzip, packages };
  });
}

/**
 * The chunks a split build's entry loads before it runs: the entry and, transitively, the chunks it
 * imports statically (bun moves modules shared with a lazy chunk into one of those); not `import()`.
 */
function loadedAtStart(dir: string, entry: string): Buffer[] {
  const seen = new Set<string>([entry]);
  const chunks: Buffer[] = [];
  for (const name of seen) {
    const code = readFileSync(join(dir, name));
    chunks.push(code);
    for (const [, chunk] of code.toString("utf8").matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) seen.add(chunk);
  }
  return chunks;
}

/**
 * Describes the packages our own installs bring in.
 *
 * @param root The project root.
 * @returns A sentence for RESULTS.md.
 */
export function packageCounts(root: string): string {
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as Lock;
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  const all = Object.keys(manifest.dependencies);
  const http = ["valibot"];
  return `@mcplite/sdk brings ${closure(lock, all)} packages with every optional wire's dependencies ` +
    `(${all.join(", ")}); the HTTP wires alone need ${closure(lock, http)} (${http.join(", ")}).`;
}

if (process.argv[1]?.endsWith("bundle.ts")) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  for (const row of bundleSizes(root)) {
    console.log(
      `${row.name.padEnd(50)} ${
        row.error ?? `${(row.minified / 1024).toFixed(1)} KB min, ${(row.gzip / 1024).toFixed(1)} KB gzip`
      }, ${row.packages} packages`,
    );
  }
  console.log(packageCounts(root));
}
