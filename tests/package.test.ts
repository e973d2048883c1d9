/**
 * The package's manifests say one thing each. deno.json is the one JSR reads (name, version, exports,
 * what is published); package.json is the private development manifest that npm ci and bun install
 * read (dependencies), so it may repeat name and version but must agree; there is no jsr.json to drift.
 * The Node version package.json and the README state covers what every dependency declares in its own
 * `engines`, so no user on Node is promised a version the published code cannot run on.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";

const ROOT = new URL("..", import.meta.url).pathname;
const json = (file: string) => JSON.parse(readFileSync(ROOT + file, "utf8"));

/** The lower bound of a `>=x.y.z` range, as [major, minor, patch]. */
function lowerBound(range: string): number[] {
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  assert.ok(match, `not a ">=x.y.z" range: ${range}`);
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

function atLeast(a: number[], b: number[]): boolean {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}

describe("the package manifests", () => {
  const deno = json("deno.json");
  const pkg = json("package.json");

  it("keep name, version and exports in deno.json only", () => {
    assert.equal(existsSync(ROOT + "jsr.json"), false, "JSR reads deno.json; a jsr.json would be a second source");
    assert.equal(deno.name, "@mcplite/sdk");
    assert.match(deno.version, /^\d+\.\d+\.\d+/);
    assert.ok(Object.keys(deno.exports).includes("."));
    assert.equal(pkg.exports, undefined, "exports live in deno.json");
  });

  it("agree on name and version where package.json repeats them", () => {
    assert.equal(pkg.private, true, "package.json is the development manifest, never published to npm");
    assert.equal(pkg.name, deno.name);
    assert.equal(pkg.version, deno.version);
  });

  it("state a Node version that every runtime dependency supports, in package.json and the README", () => {
    const stated = lowerBound(pkg.engines.node);
    for (const name of Object.keys(pkg.dependencies)) {
      const range: string | undefined = json(`node_modules/${name}/package.json`).engines?.node;
      if (range !== undefined) {
        assert.ok(
          atLeast(stated, lowerBound(range)),
          `${name} needs Node ${range}, package.json says ${pkg.engines.node}`,
        );
      }
    }
    const readme = readFileSync(ROOT + "README.md", "utf8");
    assert.ok(readme.includes(`Node.js ${stated[0]}.${stated[1]} or later`), "the README states the same Node version");
  });
});
