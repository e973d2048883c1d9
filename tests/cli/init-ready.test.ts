/**
 * A project `mcplite init` writes is ready for the next step without an install: its manifest
 * (package.json, or deno.json for Deno) holds the version and an `mcpName`, which the server reads from
 * there, so `mcplite server-json` writes a server.json at once, without a version note; it has a `dev`
 * script; and the next steps print a CLI that runs on its runtime (`bunx --bun` on Bun). The projects
 * are written inside this checkout, whose node_modules gives valibot, with the SDK's import pointed at
 * this checkout's sources.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ROOT } from "../helpers/process.ts";
import { runCli } from "./cli-helpers.ts";
import { scratchDir } from "../helpers/scratch-dir.ts";

const dir = scratchDir(".init-ready-", join(ROOT, "tests", "cli"));

function json(path: string) {
  return JSON.parse(readFileSync(path, "utf8"));
}

describe("a project mcplite init writes", () => {
  for (const runtime of ["node", "bun", "deno"] as const) {
    it(`${runtime}: server-json works at once, the version written once, a dev script`, async () => {
      const project = join(dir, `${runtime}-app`);
      const made = await runCli(["init", project, "--runtime", runtime, "--sdk", "registry"], { timeoutMs: 30_000 });
      assert.equal(made.code, 0, made.stderr);
      const manifestFile = runtime === "deno" ? "deno.json" : "package.json";
      const manifest = json(join(project, manifestFile));
      assert.equal(manifest.version, "0.1.0");
      assert.equal(manifest.mcpName, `io.github.your-github-user/${runtime}-app`);
      const scripts = runtime === "deno" ? manifest.tasks : manifest.scripts;
      assert.match(scripts.dev, /(mcplite|\/cli) dev server\.ts$/);
      const source = readFileSync(join(project, "server.ts"), "utf8");
      assert.doesNotMatch(source, /0\.1\.0/, "the version is written in the manifest only");
      assert.match(source, new RegExp(`import manifest from "\\./${manifestFile}" with \\{ type: "json" \\};`));
      if (runtime === "bun") assert.match(made.stdout, /bunx --bun mcplite call /);
      assert.doesNotMatch(made.stdout, /bunx mcplite/);
      assert.match(made.stdout, /Before publishing to the MCP Registry, make "mcpName" .* yours/);

      writeFileSync(join(project, "server.ts"), source.replace('"@mcplite/sdk"', JSON.stringify(`${ROOT}mod.ts`)));
      const wrote = await runCli(["server-json", join(project, "server.ts"), "--dir", project], { timeoutMs: 30_000 });
      assert.equal(wrote.code, 0, wrote.stderr);
      assert.doesNotMatch(wrote.stderr, /the server reports version/);
      if (runtime !== "deno") assert.match(wrote.stderr, /"private": true, so no npm package is listed/);
      const document = json(join(project, "server.json"));
      assert.equal(document.name, `io.github.your-github-user/${runtime}-app`);
      assert.equal(document.version, "0.1.0");
    });
  }

  it("deno, from a file: the dev task and the next steps run the CLI from npm's node_modules", async () => {
    const tarball = join(dir, "mcplite-sdk-0.0.0.tgz");
    writeFileSync(tarball, "");
    const project = join(dir, "deno-file-app");
    const made = await runCli(["init", project, "--runtime", "deno", "--sdk", tarball], { timeoutMs: 30_000 });
    assert.equal(made.code, 0, made.stderr);
    assert.equal(json(join(project, "deno.json")).tasks.dev, "deno run -A npm:@mcplite/sdk/cli dev server.ts");
    assert.match(made.stdout, /deno run -A npm:@mcplite\/sdk\/cli call /);
  });
});
