/**
 * `mcplite skills`: lists a server's Agent Skills, and fetches one, verified, to stdout or below `--out`.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { createServer, serve } from "../../mod.ts";
import { skillFromDirectory } from "../../src/skills/mod.ts";
import type { Listener } from "../../src/types.ts";
import { runCli } from "./cli-helpers.ts";

const SKILL = fileURLToPath(new URL("../../examples/skills/release-notes", import.meta.url));

describe("mcplite skills", () => {
  let listener: Listener;
  let out: string;
  before(async () => {
    const server = createServer({ name: "skills", version: "1.0.0" }).skill(await skillFromDirectory(SKILL));
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    out = mkdtempSync(join(tmpdir(), "mcplite-skills-"));
  });
  after(async () => {
    await listener.close();
    rmSync(out, { recursive: true, force: true });
  });

  it("lists the skills with their descriptions", async () => {
    const run = await runCli(["skills", `${listener.url}/mcp`]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^release-notes\tWrites release notes/m);
  });

  it("prints a skill's SKILL.md, and writes its verified files below --out", async () => {
    const shown = await runCli(["skills", `${listener.url}/mcp`, "get", "release-notes"]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.stdout, readFileSync(join(SKILL, "SKILL.md"), "utf8"));
    const written = await runCli(["skills", `${listener.url}/mcp`, "get", "release-notes", "--out", out]);
    assert.equal(written.code, 0, written.stderr);
    assert.equal(
      readFileSync(join(out, "release-notes", "references", "STYLE.md"), "utf8"),
      readFileSync(join(SKILL, "references", "STYLE.md"), "utf8"),
    );
    assert.ok(existsSync(join(out, "release-notes", "SKILL.md")));
    const missing = await runCli(["skills", `${listener.url}/mcp`, "get", "nope"]);
    assert.equal(missing.code, 2);
  });
});
