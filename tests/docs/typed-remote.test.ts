/**
 * The client guide's "A server in another codebase": its `remote.ts` block is what `mcplite types` writes
 * against `examples/quickstart.ts` today, and its client block, saved beside that module, runs against
 * the example served on a free port, on the runtime running the test (Deno and Bun).
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, it } from "node:test";
import { entryPointImports } from "../helpers/entry-points.ts";
import { exampleProject, tsBlocks } from "../helpers/markdown.ts";
import { ROOT, run, type StartedServer, startServer } from "../helpers/process.ts";
import { runCli } from "../cli/cli-helpers.ts";

const PAGE = "docs/guides/client.md";
const blocks = tsBlocks(readFileSync(`${ROOT}${PAGE}`, "utf8"), PAGE);
const remote = blocks.find((block) => block.file === "remote.ts");
const client = blocks.find((block) => block.code.includes(`from "./remote.ts"`));
const deno = (globalThis as { Deno?: { execPath(): string } }).Deno;

/** Serves examples/quickstart.ts on a free port; resolves with its origin and a way to stop it. */
function startQuickstart(): Promise<StartedServer> {
  const file = `${ROOT}examples/quickstart.ts`;
  return startServer(process.execPath, deno ? ["run", "-A", "--unstable-no-legacy-abort", file] : [file]);
}

describe("the client guide's typed client for a server in another codebase", () => {
  let server: { origin: string; stop(): Promise<void> } | undefined;
  before(async () => {
    server = await startQuickstart();
  });
  after(async () => await server?.stop());

  it("shows the module mcplite types writes against examples/quickstart.ts", { timeout: 120_000 }, async () => {
    assert.ok(remote, `${PAGE} has a <!-- file: remote.ts --> block`);
    const generated = await runCli(["types", server!.origin], { timeoutMs: 90_000 });
    assert.equal(generated.code, 0, generated.stderr);
    assert.equal(`${remote.code}\n`, generated.stdout, "the page's remote.ts is what mcplite types writes today");
  });

  it("runs its client block against it, typed by that module", { timeout: 120_000 }, async () => {
    assert.ok(remote && client, `${PAGE} has the client block`);
    const dir = mkdtempSync(join(tmpdir(), "mcplite-typed-remote-"));
    try {
      exampleProject(dir);
      const paths = Object.fromEntries(
        Object.entries(entryPointImports()).map(([name, url]) => [name, [new URL(url).pathname]]),
      );
      writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, paths } }));
      writeFileSync(join(dir, "remote.ts"), `${remote.code}\n`);
      writeFileSync(join(dir, "client.ts"), client.code.replaceAll("http://localhost:8000", server!.origin));
      const ran = await run(process.execPath, deno ? ["run", "-A", "client.ts"] : ["run", "client.ts"], 90_000, dir);
      assert.equal(ran.code, 0, ran.stderr);
      assert.match(ran.stdout, /^\d+ \[ "/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
