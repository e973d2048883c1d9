/**
 * Where `mcplite init` takes `@mcplite/sdk` from, before a release as after: `--sdk` (a tarball, a
 * checkout, or `registry`), else the CLI's own origin — a registry install (the registry's version), an
 * install of a tarball (`npx ./mcplite-sdk-….tgz`, whose cache's package.json names it `file:`, or
 * `node_modules/.bin/mcplite` in a project that installed one: that tarball), a checkout (itself), or JSR.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { sdkSource, sdkSpecifier } from "../../src/cli/init-sdk.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";

const dir = scratchDir("mcplite-init-sdk-");

/** Writes files (path → text) under `dir`; answers the first one's absolute path. */
function files(entries: Record<string, string>): string {
  for (const [path, text] of Object.entries(entries)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return join(dir, Object.keys(entries)[0]);
}

const sdkPackage = (version: string) => JSON.stringify({ name: "@mcplite/sdk", version });

describe("init's SDK", () => {
  it("is the registry's with --sdk registry, and from a module served over https (JSR)", async () => {
    assert.deepEqual(await sdkSource("registry", import.meta.url, dir), { kind: "registry" });
    const jsr = "https://jsr.io/@mcplite/sdk/1.0.0/src/cli/init.ts";
    assert.deepEqual(await sdkSource(undefined, jsr, dir), { kind: "registry" });
    assert.equal(sdkSpecifier({ kind: "registry" }, dir), undefined);
  });

  it("is a tarball --sdk names, relative to the working directory, written relative to the project", async () => {
    files({ "packs/mcplite-sdk-1.0.0.tgz": "" });
    const source = await sdkSource("packs/mcplite-sdk-1.0.0.tgz", import.meta.url, dir);
    assert.deepEqual(source, { kind: "tarball", path: join(dir, "packs/mcplite-sdk-1.0.0.tgz") });
    assert.equal(sdkSpecifier(source, join(dir, "apps/hello")), "file:../../packs/mcplite-sdk-1.0.0.tgz");
  });

  it("is a checkout's npm pack tarball, else its built directory, else a usage error saying how", async () => {
    files({ "co/package.json": sdkPackage("2.0.0") });
    await assert.rejects(
      sdkSource(join(dir, "co"), import.meta.url, dir),
      /checkout at .*co is not built: run `npm pack` there .*mcplite-sdk-2\.0\.0\.tgz.*--sdk registry/,
    );
    files({ "co/dist/mod.js": "" });
    assert.deepEqual(await sdkSource(join(dir, "co"), import.meta.url, dir), {
      kind: "directory",
      path: join(dir, "co"),
    });
    files({ "co/mcplite-sdk-2.0.0.tgz": "" });
    assert.deepEqual(await sdkSource("co/", import.meta.url, dir), {
      kind: "tarball",
      path: join(dir, "co/mcplite-sdk-2.0.0.tgz"),
    });
  });

  it("refuses a path that is missing, or a directory that is not the SDK", async () => {
    await assert.rejects(sdkSource("nowhere.tgz", import.meta.url, dir), /--sdk nowhere\.tgz: no such file/);
    files({ "other/package.json": JSON.stringify({ name: "left-pad" }) });
    await assert.rejects(sdkSource("other", import.meta.url, dir), /is not a checkout of @mcplite\/sdk/);
  });

  it("is the checkout the CLI runs from", async () => {
    const cli = files({ "clone/src/cli/init.ts": "", "clone/package.json": sdkPackage("3.0.0"), "clone/dist/x": "" });
    assert.deepEqual(await sdkSource(undefined, pathToFileURL(cli).href, dir), {
      kind: "directory",
      path: join(dir, "clone"),
    });
  });

  it("is the tarball the project that installed the CLI depends on (npm, Bun, npx's cache)", async () => {
    const cli = files({
      "npx/node_modules/@mcplite/sdk/dist/src/cli/init.js": "",
      "npx/node_modules/@mcplite/sdk/package.json": sdkPackage("1.0.0"),
      "npx/package.json": JSON.stringify({ dependencies: { "@mcplite/sdk": "file:../packs/mcplite-sdk-1.0.0.tgz" } }),
      "packs/mcplite-sdk-1.0.0.tgz": "",
    });
    assert.deepEqual(await sdkSource(undefined, pathToFileURL(cli).href, dir), {
      kind: "tarball",
      path: join(dir, "packs/mcplite-sdk-1.0.0.tgz"),
    });
    // `bun add ../packs/mcplite-sdk-1.0.0.tgz` writes the path without `file:`.
    files({
      "npx/package.json": JSON.stringify({ dependencies: { "@mcplite/sdk": "../packs/mcplite-sdk-1.0.0.tgz" } }),
    });
    assert.deepEqual(await sdkSource(undefined, pathToFileURL(cli).href, dir), {
      kind: "tarball",
      path: join(dir, "packs/mcplite-sdk-1.0.0.tgz"),
    });
  });

  it("is the registry's when the installing project names a version, or a file that is gone", async () => {
    const cli = files({
      "app/node_modules/@mcplite/sdk/dist/src/cli/init.js": "",
      "app/node_modules/@mcplite/sdk/package.json": sdkPackage("1.0.0"),
      "app/package.json": JSON.stringify({ dependencies: { "@mcplite/sdk": "^1.0.0" } }),
    });
    assert.deepEqual(await sdkSource(undefined, pathToFileURL(cli).href, dir), { kind: "registry" });
    files({ "app/package.json": JSON.stringify({ devDependencies: { "@mcplite/sdk": "file:gone.tgz" } }) });
    assert.deepEqual(await sdkSource(undefined, pathToFileURL(cli).href, dir), { kind: "registry" });
  });
});
