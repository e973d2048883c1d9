/**
 * The Getting started pages run as written: each page's named blocks are saved in an empty project
 * (the package mapped to this checkout), `main.ts` serves on a free port, `client.ts` calls the tool
 * over HTTP and prints its answer, and the page's own test passes, on Deno and Bun. (Every page's code,
 * the Deno page's test included, is type-checked by code-blocks.test.ts; Node runs the package only as built,
 * from a tarball, as tests/npm-checkout.test.ts does.)
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { describe, it } from "node:test";
import { entryPointImports } from "../helpers/entry-points.ts";
import { exampleProject, tsBlocks } from "../helpers/markdown.ts";
import { ROOT, run } from "../helpers/process.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";

const DENO = `${ROOT}node_modules/.bin/deno`;
const BUN = `${ROOT}node_modules/.bin/bun`;

/** Saves a page's named blocks in a fresh project; returns its folder. */
function project(page: string): string {
  const dir = mkdtempSync(join(tmpdir(), "mcplite-getting-started-"));
  exampleProject(dir);
  // Bun resolves the package's entry points through tsconfig paths, as Deno does through deno.json.
  const paths = Object.fromEntries(
    Object.entries(entryPointImports()).map(([name, url]) => [name, [new URL(url).pathname]]),
  );
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, paths } }));
  const blocks = tsBlocks(readFileSync(`${ROOT}docs/getting-started/${page}`, "utf8"), `docs/getting-started/${page}`);
  for (const block of blocks) writeFileSync(join(dir, block.file), block.code + "\n");
  for (const file of ["server.ts", "main.ts", "client.ts"]) {
    assert.ok(blocks.some((b) => b.file === file), `${page} names a ${file} block`);
  }
  return dir;
}

/** Starts `main.ts` on a free port; resolves with its origin and a stop function. */
function start(command: string, args: string[], cwd: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(command, args, { cwd, env: { ...process.env, PORT: "0" }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`main.ts did not listen in 30 s: ${stderr}`));
    }, 30_000);
    child.stderr!.on("data", (chunk) => {
      stderr += String(chunk);
      const listening = /Listening on (http:\/\/[\w.:]+)/.exec(stderr);
      if (listening === null) return;
      clearTimeout(timer);
      resolve({ url: listening[1], stop: () => child.kill() });
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`main.ts exited with ${code}: ${stderr}`));
    });
  });
}

/** Runs a page: serve, call with the client, run its test. */
async function runPage(page: string, serve: string[], client: string[], test: string[], command: string) {
  const dir = project(page);
  const server = await start(command, serve, dir);
  try {
    const file = join(dir, "client.ts");
    writeFileSync(file, readFileSync(file, "utf8").replace("http://127.0.0.1:8000", server.url));
    const called = await run(command, client, 60_000, dir);
    assert.equal(called.code, 0, called.stderr);
    assert.equal(called.stdout.trim(), "Hello, Ada!");
    const tested = await run(command, test, 240_000, dir);
    assert.equal(tested.code, 0, `${tested.stdout}${tested.stderr}`);
  } finally {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the Getting started pages, run as written", { skip: ONCE_PER_RUN }, () => {
  it("Deno: serves, answers the typed client, passes its test", { timeout: 400_000 }, async () => {
    await runPage(
      "deno.md",
      ["run", "-A", "main.ts"],
      ["run", "-A", "client.ts"],
      // `--no-check`: the page's blocks, its test among them, are type-checked with every other page's in one
      // `deno check` (tests/docs/code-blocks.test.ts; about 16 s of CPU a second time here).
      ["test", "-A", "--no-check", "server_test.ts"],
      DENO,
    );
  });

  it("Bun: serves, answers the typed client, passes its test", { timeout: 400_000 }, async () => {
    await runPage("bun.md", ["run", "main.ts"], ["run", "client.ts"], ["test", "--timeout", "30000"], BUN);
  });
});
