/**
 * The package's manifests say one thing each. jsr.json is the JSR manifest, the source of truth for name,
 * version, exports and what is published (`deno publish --config jsr.json`: deno publish reads deno.json
 * when both exist, so deno.json keeps tasks, lint, fmt, unstable, and an import map of the package's own
 * specifiers onto its sources); package.json is both the
 * development manifest (npm ci, bun install) and the npm package's manifest, whose `exports` are jsr.json's,
 * compiled into dist/ by `npm run build` (tsc, tsconfig.npm.json). It repeats name, version and exports, and
 * must agree: one version, one export map. The Node version package.json and the README state covers what
 * every dependency declares in its own `engines`, and the `mcplite` bin checks it at start. */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { importsIn } from "./helpers/import-graph.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const json = (file: string) => JSON.parse(readFileSync(ROOT + file, "utf8"));

/** The lower bound of a `>=x.y.z` range, as [major, minor, patch]. */
function lowerBound(range: string): number[] {
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  assert.ok(match, `not a ">=x.y.z" range: ${range}`);
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

/**
 * Whether Node `stated` and later meet a dependency's `engines.node`: some alternative of its `||` ranges
 * (`>=16 || 14 >=14.17`, sucrase's) is a `>=x.y.z` bound at or below `stated` (an alternative with an upper
 * bound, such as `14 >=14.17`, holds no later Node).
 */
function supports(stated: number[], range: string): boolean {
  return range.split("||").some((alternative) => {
    const comparators = alternative.trim().replace(/([<>]=?)\s+/g, "$1").split(/\s+(?=[<>=~^\d])/).filter((c) =>
      c !== ""
    );
    return comparators.length === 1 && atLeast(stated, lowerBound(comparators[0]));
  });
}

/** package.json `exports` for jsr.json's: each subpath's source, compiled by tsc into dist/ (.js and .d.ts). */
function npmExports(exports: Record<string, string>): Record<string, { types: string; default: string }> {
  const entries = Object.entries(exports).map(([subpath, source]) => {
    const compiled = "./dist/" + source.replace(/^\.\//, "").replace(/\.ts$/, "");
    return [subpath, { types: `${compiled}.d.ts`, default: `${compiled}.js` }] as const;
  });
  return Object.fromEntries(entries);
}

/** The published TypeScript sources (jsr.json `publish.include`: mod.ts and src/, no tests). */
function sourceFiles(): string[] {
  const files = (readdirSync(ROOT + "src", { recursive: true }) as string[])
    .filter((file) => file.endsWith(".ts") && !/\.test(-d)?\.ts$/.test(file))
    .map((file) => `src/${file}`);
  return ["mod.ts", ...files];
}

/** The bare specifiers of a module's static and dynamic imports and re-exports (comments, so @examples, left out). */
function bareImports(source: string): string[] {
  const specifiers = importsIn(source).map((i) => i.spec);
  return specifiers.filter((specifier) => !specifier.startsWith(".") && !specifier.startsWith("node:"));
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

function atLeast(a: number[], b: number[]): boolean {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}

describe("the package manifests", () => {
  const jsr = json("jsr.json");
  const deno = json("deno.json");
  const pkg = json("package.json");

  it("keep name, version, exports and what is published in jsr.json, none of them in deno.json", () => {
    assert.equal(jsr.name, "@mcplite/sdk");
    assert.match(jsr.version, /^\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$/, "a semver version");
    assert.ok(Object.keys(jsr.exports).includes("."));
    assert.deepEqual(jsr.publish.include, ["mod.ts", "src/**/*.ts", "README.md", "LICENSE"]);
    for (const field of ["name", "version", "exports", "publish"]) {
      assert.equal(deno[field], undefined, `deno.json states "${field}": jsr.json is the one manifest`);
    }
    assert.match(pkg.scripts["publish:dry"], /^deno publish .*--config jsr\.json/, "deno publish reads deno.json else");
  });

  it("let Deno resolve the package's own specifiers to its sources: deno.json imports are jsr.json's exports", () => {
    // Without them, "@mcplite/sdk" in a JSDoc example resolves through package.json to dist/ (once a build
    // made it), and deno test --doc type-checks the build instead of the sources.
    const own = Object.fromEntries(
      Object.entries(jsr.exports as Record<string, string>).map(([path, file]) => [jsr.name + path.slice(1), file]),
    );
    assert.deepEqual(deno.imports, own);
  });

  it("agree on name, version and exports: npm's are jsr.json's, compiled into dist/", () => {
    assert.equal(pkg.private, undefined, "package.json is the npm package's manifest too");
    assert.equal(pkg.name, jsr.name);
    assert.equal(pkg.version, jsr.version);
    assert.deepEqual(pkg.exports, npmExports(jsr.exports), "run the build's mapping: package.json exports drifted");
    assert.deepEqual(
      pkg.files,
      ["dist/"],
      "the tarball holds the build only (package.json, README and LICENSE come with it)",
    );
    const lock = json("package-lock.json");
    assert.equal(lock.version, jsr.version, "package-lock.json: run npm install after a version change");
  });

  it("send the version they state as the client's and the CLI's clientInfo.version", () => {
    const version = readFileSync(ROOT + "src/internal/version.ts", "utf8");
    assert.equal(/export const SDK_VERSION = "([^"]+)";/.exec(version)?.[1], jsr.version);
  });

  it("describe the version they state in CHANGELOG.md (Keep a Changelog)", () => {
    const changelog = readFileSync(ROOT + "CHANGELOG.md", "utf8");
    assert.match(changelog, /^## \[Unreleased\]$/m);
    const escaped = jsr.version.replaceAll(".", "\\.");
    assert.match(changelog, new RegExp(`^## \\[${escaped}\\] - (\\d{4}-\\d{2}-\\d{2}|Unreleased)$`, "m"));
  });

  it("map every export to a published source file", () => {
    for (const [subpath, file] of Object.entries<string>(jsr.exports)) {
      assert.ok(existsSync(ROOT + file), `${subpath}: ${file} does not exist`);
      assert.ok(file === "./mod.ts" || file.startsWith("./src/"), `${subpath}: ${file} is outside publish.include`);
    }
  });

  it("declare as dependencies (or peers) every package the published code imports", () => {
    const imported = new Set<string>();
    for (const file of sourceFiles()) {
      for (const specifier of bareImports(readFileSync(ROOT + file, "utf8"))) imported.add(packageName(specifier));
    }
    imported.delete(jsr.name);
    const declared = { ...pkg.dependencies, ...pkg.peerDependencies };
    assert.deepEqual([...imported].filter((name) => !(name in declared)), []);
    assert.deepEqual(Object.keys(pkg.dependencies).filter((name) => !imported.has(name)), [], "an unused dependency");
  });

  it("make @opentelemetry/api an optional peer, with the same range on JSR", () => {
    // One copy of the API for the application's SDK and otel(): a second copy ignores the SDK's registration.
    const range = pkg.peerDependencies["@opentelemetry/api"];
    assert.match(range, /^\^1\.\d+\.\d+$/);
    assert.equal(pkg.dependencies["@opentelemetry/api"], undefined);
    assert.deepEqual(pkg.peerDependenciesMeta["@opentelemetry/api"], { optional: true });
    // deno publish writes a bare import as the import map of the config it reads (jsr.json) says, else as
    // devDependencies pin it.
    assert.equal(jsr.imports["@opentelemetry/api"], `npm:@opentelemetry/api@${range}`);
  });

  it("run the mcplite bin from the build, checking the Node version package.json states", () => {
    assert.deepEqual(pkg.bin, { mcplite: "dist/src/cli/bin.mjs" });
    const tsconfig = json("tsconfig.npm.json");
    assert.ok(tsconfig.files.includes("src/cli/bin.mjs"), "the build compiles the launcher into dist/src/cli/");
    const launcher = readFileSync(ROOT + "src/cli/bin.mjs", "utf8");
    const minimum = /const NODE_MINIMUM = \[(\d+), (\d+)\]/.exec(launcher);
    assert.ok(minimum, "src/cli/bin.mjs states NODE_MINIMUM");
    assert.deepEqual([Number(minimum[1]), Number(minimum[2]), 0], lowerBound(pkg.engines.node));
    // prepare: npm pack and npm publish build first, and so does npm ci in a checkout (for npx mcplite there)
    assert.equal(pkg.scripts.prepare, "npm run build", "npm ci, npm pack and npm publish build first");
    assert.equal(pkg.scripts.prepack, undefined, "one build per pack (prepare runs on npm pack too)");
  });

  it("state a Node version that every runtime dependency supports, in package.json and the README", () => {
    const stated = lowerBound(pkg.engines.node);
    for (const name of Object.keys(pkg.dependencies)) {
      const range: string | undefined = json(`node_modules/${name}/package.json`).engines?.node;
      if (range !== undefined) {
        assert.ok(
          supports(stated, range),
          `${name} needs Node ${range}, package.json says ${pkg.engines.node}`,
        );
      }
    }
    const readme = readFileSync(ROOT + "README.md", "utf8");
    assert.ok(readme.includes(`Node.js ${stated[0]}.${stated[1]} or later`), "the README states the same Node version");
  });
});
