/**
 * The one reader of import specifiers for the architecture tests: static imports, re-exports and
 * `import()` with a literal specifier (ECMAScript 2025 §16.2.1 ImportDeclaration, ExportDeclaration,
 * §13.3.10 ImportCall), comments left out, and the graph of the source files they make.
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

/** The repository's root, with a trailing slash. */
export const ROOT: string = new URL("../..", import.meta.url).pathname;

/** One specifier a module names. */
export interface ImportSpec {
  /** The specifier, as written. */
  readonly spec: string;
  /** `import type` / `export type`: erased, loads nothing. */
  readonly typeOnly: boolean;
  /** `import("…")`: loaded when the code runs, not when the module loads. */
  readonly dynamic: boolean;
}

/** A module's text without its comments (so a JSDoc example's imports are not the module's). */
export function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** Every specifier a module's source names: static imports, re-exports, and literal `import()`. */
export function importsIn(text: string): ImportSpec[] {
  const code = withoutComments(text);
  const found: ImportSpec[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\s+(type\s+)?[^;]*?\sfrom\s*["']([^"']+)["']/gms)) {
    found.push({ spec: m[2], typeOnly: Boolean(m[1]), dynamic: false });
  }
  for (const m of code.matchAll(/^\s*import\s*["']([^"']+)["']/gm)) {
    found.push({ spec: m[1], typeOnly: false, dynamic: false });
  }
  for (const m of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) {
    found.push({ spec: m[1], typeOnly: false, dynamic: true });
  }
  return found;
}

/** The arguments of a module's `import()` calls that are not one string literal (which a bundler cannot follow). */
export function nonLiteralImports(text: string): string[] {
  const code = withoutComments(text);
  return [...code.matchAll(/\bimport\(\s*([^)]*?)\s*\)/g)].map((m) => m[1]).filter((arg) =>
    !/^["'][^"']+["']$/.test(arg)
  );
}

/** Every specifier of a file (a path from the root). */
export function importsOf(file: string): ImportSpec[] {
  return importsIn(readFileSync(join(ROOT, file), "utf8"));
}

/** Every `.ts` file under a folder (a path from the root), recursively; `skip` leaves folders out. */
export function sourceFiles(dir: string, skip: readonly string[] = []): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skip.includes(path) ? [] : sourceFiles(path, skip);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The package's modules: `mod.ts` and every source file under src (generated code left out). */
export const PACKAGE_FILES: readonly string[] = ["mod.ts", ...sourceFiles("src", ["src/gen"])];

/** Options of {@link fileGraph}. */
export interface GraphOptions {
  /** Count `import type` (default true: a type cycle is still a cycle of the design). */
  readonly types?: boolean;
  /** Count `import()` (default true). */
  readonly dynamic?: boolean;
}

/** Each file and the package files its relative specifiers reach (generated code left out). */
export function fileGraph(
  files: readonly string[] = PACKAGE_FILES,
  { types = true, dynamic = true }: GraphOptions = {},
): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const { spec, typeOnly, dynamic: lazy } of importsOf(file)) {
      if (!spec.startsWith(".") || (typeOnly && !types) || (lazy && !dynamic)) continue;
      const target = normalize(join(dirname(file), spec));
      if (!target.startsWith("src/gen/")) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The files that loading `roots` loads, transitively (static value imports; `import()` only if asked). */
export function reachedFrom(roots: readonly string[], { dynamic = false }: { dynamic?: boolean } = {}): Set<string> {
  const graph = fileGraph(PACKAGE_FILES, { types: false, dynamic });
  const reached = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    queue.push(...(graph.get(file) ?? []));
  }
  return reached;
}

/** Tarjan's strongly connected components: every group of nodes that reach each other (sorted). */
export function stronglyConnected(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      groups.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}

/** The groups of more than one node that import each other. */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  return stronglyConnected(graph).filter((group) => group.length > 1);
}

/** The graph of `graph`'s nodes grouped by `unitOf` (edges inside a unit dropped). */
export function groupGraph(
  graph: Map<string, Set<string>>,
  unitOf: (file: string) => string,
): Map<string, Set<string>> {
  const units = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = unitOf(file);
    const edges = units.get(from) ?? new Set<string>();
    units.set(from, edges);
    for (const target of targets) if (unitOf(target) !== from) edges.add(unitOf(target));
  }
  return units;
}
