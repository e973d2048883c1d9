/**
 * The pages that say where things live cannot go stale: every `src/…`, `tests/…` and `bench/…` path that
 * docs/architecture.md, docs/contributing.md and docs/concepts/*.md name exists in the tree (a folder
 * ends in `/`; `{a,b}` names each; `<wire>`, `<runtime>` or `*` stands for one folder or file, and at
 * least one must match), and every file name docs/architecture.md writes alone (`dispatch.ts`) is one
 * the source tree has. A path marked `†` is being moved by another branch: it must not exist yet.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { ROOT } from "../helpers/process.ts";

const ARCHITECTURE = "docs/architecture.md";
const PAGES = [
  ARCHITECTURE,
  "docs/contributing.md",
  ...readdirSync(`${ROOT}docs/concepts`).filter((f) => f.endsWith(".md")).map((f) => `docs/concepts/${f}`),
];
const read = (page: string) => readFileSync(ROOT + page, "utf8");

/** Every file of the repository's source, test and bench trees, relative to the root. */
function tree(dir: string): string[] {
  return readdirSync(ROOT + dir, { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? [`${path}/`, ...tree(path)] : [path];
  });
}
const TREE = ["src", "tests", "bench"].flatMap(tree);
const BASE_NAMES = new Set(TREE.map((path) => path.split("/").pop()));

/** A path as a page names it, and whether it is marked as moving (`†`). */
interface Named {
  path: string;
  pending: boolean;
}

/** The paths a page names, at `src/`, `tests/` or `bench/`, a trailing `†` read as the mark. */
function pathsIn(text: string): Named[] {
  const found = text.matchAll(/(?<![\w/.-])((?:src|tests|bench)\/[\w./{},<>*-]*[\w/}>*])(`?)(†?)/g);
  return [...found].flatMap((m) => expand(m[1]).map((path) => ({ path, pending: m[3] === "†" })));
}

/** `src/runtime/{deno,bun}/listen.ts` → one path per alternative. */
function expand(path: string): string[] {
  const brace = /\{([^{}]*)\}/.exec(path);
  if (brace === null) return [path];
  return brace[1].split(",").flatMap((part) => expand(path.replace(brace[0], part)));
}

/** Whether a path, with `<placeholder>` and `*` standing for one name, matches the tree. */
function exists(path: string): boolean {
  if (!/[<*]/.test(path)) return existsSync(ROOT + path);
  const pattern = path.replace(/[.+?^$()|[\]\\]/g, "\\$&").replace(/<[\w-]+>|\*\*?/g, "[^/]+");
  const match = new RegExp(`^${pattern}${path.endsWith("/") ? "" : "/?"}$`);
  return TREE.some((file) => match.test(file));
}

describe("docs that say where things live", () => {
  it("names at least the layers and request paths' files on the architecture page", () => {
    const named = new Set(pathsIn(read(ARCHITECTURE)).map((n) => n.path));
    for (const path of ["src/jobs/", "src/assembly/", "src/bindings/mcplite/methods.ts"]) {
      assert.ok(named.has(path), `${ARCHITECTURE} does not name ${path}`);
    }
    assert.ok(named.size > 60, `${ARCHITECTURE} names ${named.size} paths`);
  });

  for (const page of PAGES) {
    it(`${page}: every path it names exists`, () => {
      const missing = pathsIn(read(page)).filter((n) => !n.pending && !exists(n.path)).map((n) => n.path);
      assert.deepEqual([...new Set(missing)], []);
    });
  }

  it("marks as moving (†) only paths that are not there yet, in a folder that is", () => {
    for (const page of PAGES) {
      for (const { path } of pathsIn(read(page)).filter((n) => n.pending)) {
        assert.ok(!exists(path), `${page}: ${path} exists now: drop its †`);
        assert.ok(existsSync(ROOT + path.replace(/[^/]+\/?$/, "")), `${page}: ${path}'s folder does not exist`);
      }
    }
  });

  it(`${ARCHITECTURE}: every file name written alone is a file of the tree`, () => {
    const text = read(ARCHITECTURE);
    const alone = [...text.matchAll(/`([\w.-]+\.(?:ts|mjs))`(†?)/g)].filter((m) => m[2] === "").map((m) => m[1]);
    assert.ok(alone.length > 10, "the page names files by their base name too");
    assert.deepEqual([...new Set(alone.filter((name) => !BASE_NAMES.has(name)))], []);
  });
});
