/**
 * A page whose TypeScript imports an npm package that ships no declarations of its own (node-postgres `pg`,
 * Express, Koa) names the `@types/…` package to install beside it: without it the page's code does not
 * type-check for a reader (tsc under `strict`, Deno: "Could not find a declaration file for module"), though it
 * does here, where the repository's devDependencies hold it. tests/docs/code-blocks.test.ts type-checks the code.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { markdownFiles, tsBlocks } from "../helpers/markdown.ts";
import { ROOT } from "../helpers/process.ts";

/** The npm packages a block imports by a bare specifier (not the SDK, `node:`, `npm:`, `jsr:`, a URL or a path). */
function packagesOf(code: string): string[] {
  const specifiers = [...code.matchAll(/\b(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]);
  return specifiers
    .filter((s) => !/^(\.|\/|[a-z]+:|@mcplite\/sdk(\/|$))/.test(s))
    .map((s) => s.split("/").slice(0, s.startsWith("@") ? 2 : 1).join("/"));
}

/**
 * Whether an installed package declares its types: a `types` field or condition (mcp-lite 0.10's names a file its
 * tarball lacks; no `@types` package would help there), or a `.d.ts` beside an entry file.
 */
function shipsTypes(name: string): boolean {
  const dir = join(ROOT, "node_modules", name);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  if (pkg.types !== undefined || pkg.typings !== undefined || JSON.stringify(pkg.exports ?? {}).includes('"types":')) {
    return true;
  }
  const entries: string[] = [pkg.main ?? "index.js"];
  const walk = (value: unknown): void => {
    if (typeof value === "string") entries.push(value);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(walk);
  };
  walk(pkg.exports);
  return entries.some((entry) => {
    const file = join(dir, entry);
    const base = file.replace(/\.(c|m)?js$/, "");
    return [".d.ts", ".d.mts", ".d.cts"].some((ext) => existsSync(base + ext)) ||
      existsSync(join(file, "index.d.ts")) || existsSync(join(dirname(file), "index.d.ts")) && entry === "index.js";
  });
}

/** `@types/pg` for `pg`, `@types/scope__name` for `@scope/name` (DefinitelyTyped's naming). */
const typesPackage = (name: string) => `@types/${name.startsWith("@") ? name.slice(1).replace("/", "__") : name}`;

const pages = [
  ...markdownFiles(join(ROOT, "docs")).map((page) => ({
    page: `docs/${page}`,
    text: readFileSync(join(ROOT, "docs", page), "utf8"),
  })),
  { page: "README.md", text: readFileSync(join(ROOT, "README.md"), "utf8") },
];

describe("the npm packages the docs import", () => {
  it("finds the ones without declarations of their own (the check sees them)", () => {
    assert.equal(shipsTypes("pg"), false);
    assert.equal(shipsTypes("valibot"), true);
    assert.equal(shipsTypes("@connectrpc/connect-node"), true); // a .d.ts beside each exports target
    assert.deepEqual(packagesOf('import pg from "pg";\nimport { x } from "@a/b/c";\nimport "node:fs";'), [
      "pg",
      "@a/b",
    ]);
  });

  it("each page names the @types package of every one it imports that ships none", () => {
    const missing: string[] = [];
    for (const { page, text } of pages) {
      const imported = new Set(tsBlocks(text, page).flatMap((block) => packagesOf(block.code)));
      for (const name of imported) {
        if (!existsSync(join(ROOT, "node_modules", name, "package.json"))) continue; // bun:test and the like
        if (!shipsTypes(name) && !text.includes(typesPackage(name))) missing.push(`${page}: ${typesPackage(name)}`);
      }
    }
    assert.deepEqual(missing, []);
  });
});
